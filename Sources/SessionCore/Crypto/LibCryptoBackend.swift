#if canImport(CLibCrypto)
import CLibCrypto
import Foundation

/// The Linux ``CryptoBackend``, on OpenSSL 3's libcrypto: EVP digests, RAND_bytes, public keys
/// imported from their JWK parameters through OSSL_PARAM (and kept: ``LibCryptoPublicKeys``),
/// and EVP_DigestVerify.
package enum LibCryptoBackend: CryptoBackend {
    package static func sha256(_ data: Data) throws -> Data {
        let crypto = try LibCrypto.functions()
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let status = data.withUnsafeBytes { bytes in
            crypto.EVP_Digest(bytes.baseAddress, bytes.count, &digest, &length, crypto.EVP_sha256(), nil)
        }
        guard status == 1, length == 32 else { throw PlatformCrypto.failure("SHA-256 failed") }
        return Data(digest)
    }

    package static func randomBytes(_ count: Int) throws -> Data {
        let crypto = try LibCrypto.functions()
        var bytes = [UInt8](repeating: 0, count: count)
        guard crypto.RAND_bytes(&bytes, Int32(count)) == 1 else { throw PlatformCrypto.failure("the system random generator failed") }
        return Data(bytes)
    }

    package static func sealAES256GCM(key: Data, nonce: Data, plaintext: Data, authenticating authenticatedData: Data) throws -> Data {
        let crypto = try LibCrypto.functions()
        let context = try gcmContext(crypto, key: key, nonce: nonce, encrypting: true)
        defer { crypto.EVP_CIPHER_CTX_free(context) }
        var length: Int32 = 0
        guard update(authenticatedData, into: nil, &length, { crypto.EVP_EncryptUpdate(context, $0, $1, $2, $3) }) else {
            throw PlatformCrypto.failure("AES-GCM could not authenticate the data")
        }
        var sealed = [UInt8](repeating: 0, count: plaintext.count + 16)
        var written: Int32 = 0
        let ok = sealed.withUnsafeMutableBufferPointer { out -> Bool in
            guard update(plaintext, into: out.baseAddress, &written, { crypto.EVP_EncryptUpdate(context, $0, $1, $2, $3) }) else { return false }
            var final: Int32 = 0
            guard crypto.EVP_EncryptFinal_ex(context, out.baseAddress.map { $0 + Int(written) }, &final) == 1 else { return false }
            written += final
            return crypto.EVP_CIPHER_CTX_ctrl(context, clibcrypto_ctrl_gcm_get_tag(), 16, out.baseAddress.map { UnsafeMutableRawPointer($0 + Int(written)) }) == 1
        }
        guard ok, Int(written) == plaintext.count else { throw PlatformCrypto.failure("AES-GCM sealing failed") }
        return Data(sealed)
    }

    package static func openAES256GCM(key: Data, nonce: Data, sealed: Data, authenticating authenticatedData: Data) throws -> Data? {
        guard sealed.count >= 16 else { return nil }
        let crypto = try LibCrypto.functions()
        let context = try gcmContext(crypto, key: key, nonce: nonce, encrypting: false)
        defer { crypto.EVP_CIPHER_CTX_free(context) }
        var length: Int32 = 0
        guard update(authenticatedData, into: nil, &length, { crypto.EVP_DecryptUpdate(context, $0, $1, $2, $3) }) else { return nil }
        let ciphertext = sealed.prefix(sealed.count - 16)
        var tag = [UInt8](sealed.suffix(16))
        guard crypto.EVP_CIPHER_CTX_ctrl(context, clibcrypto_ctrl_gcm_set_tag(), 16, &tag) == 1 else { return nil }
        var plaintext = [UInt8](repeating: 0, count: ciphertext.count + 16)
        var written: Int32 = 0
        let verified = plaintext.withUnsafeMutableBufferPointer { out -> Bool in
            guard update(Data(ciphertext), into: out.baseAddress, &written, { crypto.EVP_DecryptUpdate(context, $0, $1, $2, $3) }) else { return false }
            var final: Int32 = 0
            // The tag is checked here: a changed byte anywhere fails.
            guard crypto.EVP_DecryptFinal_ex(context, out.baseAddress.map { $0 + Int(written) }, &final) == 1 else { return false }
            written += final
            return true
        }
        crypto.ERR_clear_error()
        guard verified else { return nil }
        return Data(plaintext.prefix(Int(written)))
    }

    /// A context for AES-256-GCM with `key` and `nonce`, for sealing or opening.
    private static func gcmContext(_ crypto: clibcrypto_api, key: Data, nonce: Data, encrypting: Bool) throws -> OpaquePointer {
        guard key.count == 32, nonce.count == 12 else { throw PlatformCrypto.failure("AES-256-GCM needs a 32-byte key and a 12-byte nonce") }
        guard let context = crypto.EVP_CIPHER_CTX_new() else { throw PlatformCrypto.failure("AES-GCM: no cipher context") }
        guard let initialize = encrypting ? crypto.EVP_EncryptInit_ex : crypto.EVP_DecryptInit_ex else {
            crypto.EVP_CIPHER_CTX_free(context)
            throw PlatformCrypto.failure("AES-GCM could not be set up")
        }
        let ready = initialize(context, crypto.EVP_aes_256_gcm(), nil, nil, nil) == 1
            && crypto.EVP_CIPHER_CTX_ctrl(context, clibcrypto_ctrl_gcm_set_ivlen(), 12, nil) == 1
            && key.withUnsafeBytes { keyBytes in
                nonce.withUnsafeBytes { nonceBytes in
                    initialize(context, nil, nil, keyBytes.bindMemory(to: UInt8.self).baseAddress, nonceBytes.bindMemory(to: UInt8.self).baseAddress) == 1
                }
            }
        guard ready else {
            crypto.EVP_CIPHER_CTX_free(context)
            throw PlatformCrypto.failure("AES-GCM could not be set up")
        }
        return context
    }

    /// One EVP update of `input` (authenticated data when `output` is nil); true when it succeeded.
    private static func update(_ input: Data, into output: UnsafeMutablePointer<UInt8>?, _ written: inout Int32,
                               _ call: (UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int32>, UnsafePointer<UInt8>?, Int32) -> Int32) -> Bool {
        guard !input.isEmpty else { return true }
        return input.withUnsafeBytes { bytes in call(output, &written, bytes.bindMemory(to: UInt8.self).baseAddress, Int32(bytes.count)) == 1 }
    }

    package static func verifyRS256(modulus: Data, exponent: Data, message: Data, signature: Data) throws -> Bool {
        let crypto = try LibCrypto.functions()
        var parameters = [UInt8]("RSA".utf8)
        withUnsafeBytes(of: UInt32(modulus.count).bigEndian) { parameters.append(contentsOf: $0) }
        parameters += modulus
        parameters += exponent
        let key = try LibCryptoPublicKeys.key(for: parameters) {
            let n = try bignum(modulus)
            defer { crypto.BN_free(n) }
            let e = try bignum(exponent)
            defer { crypto.BN_free(e) }
            return try importPublicKey(type: clibcrypto_key_type_rsa()) { builder in
                crypto.OSSL_PARAM_BLD_push_BN(builder, clibcrypto_param_rsa_n(), n) == 1
                    && crypto.OSSL_PARAM_BLD_push_BN(builder, clibcrypto_param_rsa_e(), e) == 1
            }
        }
        return try key.withKey { try digestVerify(key: $0, message: message, signature: signature) }
    }

    package static func verifyES256(x: Data, y: Data, message: Data, rawSignature: Data) throws -> Bool {
        let crypto = try LibCrypto.functions()
        // The uncompressed point (SEC 1 §2.3.3) names the key: P-256 is the only curve here.
        let point = [0x04] + [UInt8](x) + [UInt8](y)
        let key = try LibCryptoPublicKeys.key(for: point) {
            try point.withUnsafeBytes { point in
                try importPublicKey(type: clibcrypto_key_type_ec()) { builder in
                    crypto.OSSL_PARAM_BLD_push_utf8_string(builder, clibcrypto_param_group(), clibcrypto_curve_p256(), 0) == 1
                        && crypto.OSSL_PARAM_BLD_push_octet_string(builder, clibcrypto_param_public_key(), point.baseAddress, point.count) == 1
                }
            }
        }
        let signature = try derSignature(rawSignature)
        return try key.withKey { try digestVerify(key: $0, message: message, signature: signature) }
    }

    /// A BIGNUM from big-endian bytes; the caller frees it.
    static func bignum(_ bytes: Data) throws -> OpaquePointer {
        let crypto = try LibCrypto.functions()
        let value = bytes.withUnsafeBytes { raw in
            crypto.BN_bin2bn(raw.bindMemory(to: UInt8.self).baseAddress, Int32(raw.count), nil)
        }
        guard let value else { throw PlatformCrypto.failure("cannot allocate a big number") }
        return value
    }

    /// Builds a public key of `type` from the parameters `push` adds. The builder only references
    /// what is pushed, so everything pushed must stay alive until this returns. The caller frees
    /// the key.
    private static func importPublicKey(type: UnsafePointer<CChar>, push: (OpaquePointer) -> Bool) throws -> OpaquePointer {
        let crypto = try LibCrypto.functions()
        guard let builder = crypto.OSSL_PARAM_BLD_new() else { throw PlatformCrypto.failure("cannot allocate key parameters") }
        defer { crypto.OSSL_PARAM_BLD_free(builder) }
        guard push(builder), let params = crypto.OSSL_PARAM_BLD_to_param(builder) else {
            throw PlatformCrypto.failure("cannot encode the key parameters")
        }
        defer { crypto.OSSL_PARAM_free(params) }
        guard let context = crypto.EVP_PKEY_CTX_new_from_name(nil, type, nil) else { throw PlatformCrypto.failure("the key type is not available") }
        defer { crypto.EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard crypto.EVP_PKEY_fromdata_init(context) == 1,
              crypto.EVP_PKEY_fromdata(context, &key, clibcrypto_selection_public_key(), params) == 1,
              let key else {
            crypto.ERR_clear_error()
            throw PlatformCrypto.failure("the public key is not valid")
        }
        return key
    }

    private static func digestVerify(key: OpaquePointer, message: Data, signature: Data) throws -> Bool {
        let crypto = try LibCrypto.functions()
        guard let context = crypto.EVP_MD_CTX_new() else { throw PlatformCrypto.failure("cannot allocate a digest context") }
        defer { crypto.EVP_MD_CTX_free(context) }
        guard crypto.EVP_DigestVerifyInit(context, nil, crypto.EVP_sha256(), nil, key) == 1 else {
            crypto.ERR_clear_error()
            throw PlatformCrypto.failure("cannot start verification")
        }
        let status = signature.withUnsafeBytes { sig in
            message.withUnsafeBytes { msg in
                crypto.EVP_DigestVerify(context, sig.bindMemory(to: UInt8.self).baseAddress, sig.count,
                                 msg.bindMemory(to: UInt8.self).baseAddress, msg.count)
            }
        }
        crypto.ERR_clear_error()
        return status == 1
    }

    /// r || s (32 bytes each) as the DER `ECDSA-Sig-Value` libcrypto verifies.
    private static func derSignature(_ raw: Data) throws -> Data {
        let crypto = try LibCrypto.functions()
        guard let signature = crypto.ECDSA_SIG_new() else { throw PlatformCrypto.failure("cannot allocate a signature") }
        defer { crypto.ECDSA_SIG_free(signature) }
        let r = try bignum(raw.prefix(32)), s = try bignum(raw.suffix(32))
        guard crypto.ECDSA_SIG_set0(signature, r, s) == 1 else {
            crypto.BN_free(r); crypto.BN_free(s)
            throw PlatformCrypto.failure("cannot build the signature")
        }
        return try encodeDER("the signature") { crypto.i2d_ECDSA_SIG(signature, $0) }
    }

    /// The DER an `i2d_` function writes: `encode` is called once without a buffer for the
    /// length, then once to write.
    package static func encodeDER(_ what: String, _ encode: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32) throws -> Data {
        let length = encode(nil)
        guard length > 0 else { throw PlatformCrypto.failure("cannot encode \(what)") }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return encode(&cursor)
        }
        guard written == length else { throw PlatformCrypto.failure("cannot encode \(what)") }
        return Data(der)
    }
}
#endif
