#if canImport(CLibCrypto)
import CLibCrypto
import Foundation

/// The Linux ``CryptoBackend``, on OpenSSL 3's libcrypto: EVP digests, RAND_bytes, public keys
/// imported from their JWK parameters through OSSL_PARAM, and EVP_DigestVerify.
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

    package static func verifyRS256(modulus: Data, exponent: Data, message: Data, signature: Data) throws -> Bool {
        let crypto = try LibCrypto.functions()
        let n = try bignum(modulus)
        defer { crypto.BN_free(n) }
        let e = try bignum(exponent)
        defer { crypto.BN_free(e) }
        let key = try importPublicKey(type: clibcrypto_key_type_rsa()) { builder in
            crypto.OSSL_PARAM_BLD_push_BN(builder, clibcrypto_param_rsa_n(), n) == 1
                && crypto.OSSL_PARAM_BLD_push_BN(builder, clibcrypto_param_rsa_e(), e) == 1
        }
        defer { crypto.EVP_PKEY_free(key) }
        return try digestVerify(key: key, message: message, signature: signature)
    }

    package static func verifyES256(x: Data, y: Data, message: Data, rawSignature: Data) throws -> Bool {
        let crypto = try LibCrypto.functions()
        let point = [UInt8]([0x04] + x + y)
        let key = try point.withUnsafeBytes { point in
            try importPublicKey(type: clibcrypto_key_type_ec()) { builder in
                crypto.OSSL_PARAM_BLD_push_utf8_string(builder, clibcrypto_param_group(), clibcrypto_curve_p256(), 0) == 1
                    && crypto.OSSL_PARAM_BLD_push_octet_string(builder, clibcrypto_param_public_key(), point.baseAddress, point.count) == 1
            }
        }
        defer { crypto.EVP_PKEY_free(key) }
        return try digestVerify(key: key, message: message, signature: try derSignature(rawSignature))
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
