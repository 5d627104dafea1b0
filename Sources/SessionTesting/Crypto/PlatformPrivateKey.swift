import Foundation
import SessionCore

#if canImport(CLibCrypto)
/// The private keys test providers sign with, made by the platform's crypto library (the one the
/// core verifies with): libcrypto on Linux, CryptoKit and Security on Apple platforms.
/// `PlatformPrivateKey(generating:)` makes a fresh one: RSA 2048 for RS256, P-256 for ES256.
package typealias PlatformPrivateKey = LibCryptoPrivateKey
#elseif canImport(CryptoKit) && canImport(Security)
/// The private keys test providers sign with, made by the platform's crypto library (the one the
/// core verifies with): libcrypto on Linux, CryptoKit and Security on Apple platforms.
/// `PlatformPrivateKey(generating:)` makes a fresh one: RSA 2048 for RS256, P-256 for ES256.
package typealias PlatformPrivateKey = ApplePrivateKey
#endif

/// A private key whose PKCS #8 form tests can write to a key file, as a client's operator would.
package protocol PKCS8Exportable: Sendable {
    /// The unencrypted PKCS #8 `PrivateKeyInfo`, DER.
    func pkcs8DER() throws -> Data
}
