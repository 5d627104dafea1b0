#if !canImport(CLibCrypto) && canImport(CryptoKit) && canImport(Security)
import CryptoKit
import Foundation
import SessionCore
import Security

/// A private key on Apple platforms: RSA 2048 in Security for RS256, P-256 in CryptoKit for ES256.
///
/// Never run: type-checked in CI against declarations transcribed from Apple's documentation.
///
/// The key is `Locked`: made in `init`, used by one call at a time.
package final class ApplePrivateKey: PrivateSigningKey {
    /// `@unchecked Sendable`: `SecKey` is an immutable CoreFoundation object; both keys are used
    /// only inside the key's `Locked`, one call at a time.
    private enum Key: @unchecked Sendable {
        case rsa(SecKey)
        case p256(P256.Signing.PrivateKey)
    }

    package let algorithm: JWSAlgorithm
    private let key: Locked<Key>

    package init(algorithm: JWSAlgorithm) throws {
        self.algorithm = algorithm
        switch algorithm {
        case .rs256:
            let attributes: [CFString: Any] = [kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits: 2048]
            guard let key = SecKeyCreateRandomKey(attributes as CFDictionary, nil) else {
                throw PlatformCrypto.failure("RSA key generation failed")
            }
            self.key = Locked(.rsa(key))
        case .es256:
            self.key = Locked(.p256(P256.Signing.PrivateKey()))
        }
    }

    package func publicKey() throws -> PublicKeyParameters {
        try key.withLock { key in try Self.publicKey(of: key) }
    }

    private static func publicKey(of key: Key) throws -> PublicKeyParameters {
        switch key {
        case .rsa(let key):
            guard let publicKey = SecKeyCopyPublicKey(key), let der = SecKeyCopyExternalRepresentation(publicKey, nil) as Data? else {
                throw PlatformCrypto.failure("cannot export the RSA public key")
            }
            // Security exports an RSA public key as PKCS #1 DER.
            let parameters = try RSAPublicKeyDER.decode(der)
            return .rsa(modulus: parameters.modulus, exponent: parameters.exponent)
        case .p256(let key):
            let point = key.publicKey.rawRepresentation
            return .p256(x: Data(point.prefix(32)), y: Data(point.suffix(32)))
        }
    }

    package func sign(_ message: Data) throws -> Data {
        try key.withLock { key in try Self.sign(message, with: key) }
    }

    private static func sign(_ message: Data, with key: Key) throws -> Data {
        switch key {
        case .rsa(let key):
            guard let signature = SecKeyCreateSignature(key, .rsaSignatureMessagePKCS1v15SHA256, message as CFData, nil) as Data? else {
                throw PlatformCrypto.failure("RSA signing failed")
            }
            return signature
        case .p256(let key):
            // CryptoKit's raw form is r || s, the JWS form (RFC 7518 §3.4).
            return try key.signature(for: message).rawRepresentation
        }
    }
}
#endif
