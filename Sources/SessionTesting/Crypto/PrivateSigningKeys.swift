import Foundation
import SessionCore

/// Makes the private keys test providers sign with, by the platform's crypto library (the one
/// the core verifies with): libcrypto on Linux, CryptoKit and Security on Apple platforms.
package enum PrivateSigningKeys {
    /// A fresh private key for `algorithm`: RSA 2048 for RS256, P-256 for ES256.
    /// - Throws: `cryptoFailure` when the library cannot make one.
    package static func generate(_ algorithm: JWSAlgorithm) throws -> any PrivateSigningKey & PKCS8Exportable {
        #if canImport(CLibCrypto)
        try LibCryptoPrivateKey(generating: algorithm)
        #elseif canImport(CryptoKit) && canImport(Security)
        try ApplePrivateKey(generating: algorithm)
        #endif
    }
}

/// A private key whose PKCS #8 form tests can write to a key file, as a client's operator would.
package protocol PKCS8Exportable: Sendable {
    /// The unencrypted PKCS #8 `PrivateKeyInfo`, DER.
    func pkcs8DER() throws -> Data
}
