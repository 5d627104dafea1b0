import Foundation

/// A private key in the platform's crypto library that signs JWS input: a client's key for
/// `private_key_jwt` (``ClientSigningKey``), or a test provider's. Immutable once made.
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
