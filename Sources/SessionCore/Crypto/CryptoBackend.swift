import Foundation

/// The one seam between SessionService and a platform's cryptography. Everything the package
/// signs, verifies, hashes or draws at random goes through the ``PlatformCryptoBackend`` this
/// file selects: ``LibCryptoBackend`` (OpenSSL 3's libcrypto) on Linux, ``AppleCryptoBackend``
/// (CryptoKit and Security) on Apple platforms. No other file calls a crypto library.
package protocol CryptoBackend {
    /// A private key made by ``generatePrivateKey(_:)``.
    associatedtype PrivateKey: PrivateSigningKey

    /// SHA-256 of `data`.
    static func sha256(_ data: Data) throws -> Data
    /// `count` bytes from the system CSPRNG.
    static func randomBytes(_ count: Int) throws -> Data
    /// True when `signature` is an RSASSA-PKCS1-v1_5 SHA-256 signature of `message` under the
    /// public key (`modulus`, `exponent`), both big-endian magnitudes.
    static func verifyRS256(modulus: Data, exponent: Data, message: Data, signature: Data) throws -> Bool
    /// True when `rawSignature` (r || s, 32 bytes each) is an ECDSA P-256 SHA-256 signature of
    /// `message` under the public point (`x`, `y`).
    static func verifyES256(x: Data, y: Data, message: Data, rawSignature: Data) throws -> Bool
    /// A fresh private key for `algorithm`: RSA 2048 for RS256, P-256 for ES256.
    static func generatePrivateKey(_ algorithm: JWSAlgorithm) throws -> PrivateKey
}

/// A private key that signs JWS input. Made only by a ``CryptoBackend``; immutable once made.
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

#if canImport(CLibCrypto)
/// The backend of the platform this was built for.
package typealias PlatformCryptoBackend = LibCryptoBackend
#elseif canImport(CryptoKit) && canImport(Security)
/// The backend of the platform this was built for.
package typealias PlatformCryptoBackend = AppleCryptoBackend
#endif
