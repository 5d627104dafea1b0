#if !canImport(CLibCrypto) && canImport(CryptoKit) && canImport(Security)
import CryptoKit
import Foundation
import Security

extension ApplePrivateKey {
    /// A fresh key: RSA 2048 in Security for RS256, P-256 in CryptoKit for ES256. The core makes
    /// P-256 keys for DPoP (a key per session); SessionTesting makes both for its providers.
    package convenience init(generating algorithm: JWSAlgorithm) throws {
        switch algorithm {
        case .rs256:
            let attributes: [CFString: Any] = [kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits: 2048]
            guard let key = SecKeyCreateRandomKey(attributes as CFDictionary, nil) else {
                throw PlatformCrypto.failure("RSA key generation failed")
            }
            self.init(algorithm: .rs256, key: .rsa(key))
        case .es256:
            self.init(algorithm: .es256, key: .p256(P256.Signing.PrivateKey()))
        }
    }

    /// The unencrypted PKCS #8 `PrivateKeyInfo`, DER: how a session's DPoP key is kept.
    package func pkcs8DER() throws -> Data {
        try withKey { key in
            switch key {
            case .rsa(let key):
                // Security exports PKCS #1; PKCS #8 wraps it with the rsaEncryption identifier.
                guard let pkcs1 = SecKeyCopyExternalRepresentation(key, nil) as Data? else {
                    throw PlatformCrypto.failure("cannot export the RSA key")
                }
                return PKCS8PrivateKey.wrapRSA(pkcs1)
            case .p256(let key):
                return key.derRepresentation
            case .secureEnclaveP256:
                throw PlatformCrypto.failure("a Secure Enclave key cannot be exported")
            }
        }
    }
}
#endif
