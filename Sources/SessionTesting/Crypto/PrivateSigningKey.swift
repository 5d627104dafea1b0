import Foundation
import SessionCore

/// A private key that signs JWS input, made by ``PrivateSigningKeys/generate(_:)``; immutable once made.
package protocol PrivateSigningKey: Sendable {
    /// The algorithm the key signs with.
    var algorithm: JWSAlgorithm { get }
    /// The public half, as the JWK parameters that publish it, read from the key each time.
    func publicKey() throws -> PublicKeyParameters
    /// The JWS signature of `message`: PKCS #1 v1.5 bytes for RS256, r || s for ES256.
    func sign(_ message: Data) throws -> Data
}

/// The public parameters of a signing key, as big-endian bytes (RFC 7518 §6.2, §6.3).
package enum PublicKeyParameters: Sendable, Equatable {
    /// An RSA key: modulus `n` and public exponent `e`.
    case rsa(modulus: Data, exponent: Data)
    /// A P-256 key: the point's coordinates, 32 bytes each.
    case p256(x: Data, y: Data)
}

/// Makes the private keys test providers sign with, by the platform's crypto library (the one
/// the core verifies with): libcrypto on Linux, CryptoKit and Security on Apple platforms.
package enum PrivateSigningKeys {
    /// A fresh private key for `algorithm`: RSA 2048 for RS256, P-256 for ES256.
    /// - Throws: `cryptoFailure` when the library cannot make one.
    package static func generate(_ algorithm: JWSAlgorithm) throws -> any PrivateSigningKey {
        #if canImport(CLibCrypto)
        try LibCryptoPrivateKey(algorithm: algorithm)
        #elseif canImport(CryptoKit) && canImport(Security)
        try ApplePrivateKey(algorithm: algorithm)
        #endif
    }
}
