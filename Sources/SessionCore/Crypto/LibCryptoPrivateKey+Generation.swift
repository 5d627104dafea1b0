#if canImport(CLibCrypto)
import CLibCrypto
import Foundation

extension LibCryptoPrivateKey {
    /// A fresh key from libcrypto's generator: RSA 2048 for RS256, P-256 for ES256. The core makes
    /// P-256 keys for DPoP (a key per session); SessionTesting makes both for its providers.
    package convenience init(generating algorithm: JWSAlgorithm) throws {
        self.init(algorithm: algorithm, taking: try Self.generate(algorithm))
    }

    private static func generate(_ algorithm: JWSAlgorithm) throws -> OpaquePointer {
        let crypto = try LibCrypto.functions()
        let type = algorithm == .rs256 ? clibcrypto_key_type_rsa() : clibcrypto_key_type_ec()
        guard let context = crypto.EVP_PKEY_CTX_new_from_name(nil, type, nil) else { throw PlatformCrypto.failure("cannot create a key context") }
        defer { crypto.EVP_PKEY_CTX_free(context) }
        guard crypto.EVP_PKEY_keygen_init(context) == 1 else { throw PlatformCrypto.failure("cannot start key generation") }
        switch algorithm {
        case .rs256:
            guard crypto.EVP_PKEY_CTX_set_rsa_keygen_bits(context, 2048) == 1 else { throw PlatformCrypto.failure("cannot set the RSA size") }
        case .es256:
            guard crypto.EVP_PKEY_CTX_set_group_name(context, clibcrypto_curve_p256()) == 1 else { throw PlatformCrypto.failure("cannot set the curve") }
        }
        var key: OpaquePointer?
        guard crypto.EVP_PKEY_generate(context, &key) == 1, let key else { throw PlatformCrypto.failure("key generation failed") }
        return key
    }

    /// The unencrypted PKCS #8 `PrivateKeyInfo`, DER: how a session's DPoP key is kept.
    package func pkcs8DER() throws -> Data {
        let crypto = try LibCrypto.functions()
        return try withKey { key in
            guard let info = crypto.EVP_PKEY2PKCS8(key) else { throw PlatformCrypto.failure("cannot export the key") }
            defer { crypto.PKCS8_PRIV_KEY_INFO_free(info) }
            return try LibCryptoBackend.encodeDER("the key") { crypto.i2d_PKCS8_PRIV_KEY_INFO(info, $0) }
        }
    }
}
#endif
