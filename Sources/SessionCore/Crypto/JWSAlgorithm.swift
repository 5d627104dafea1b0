import Foundation

/// The JWS algorithms SessionService verifies. Anything else, `none` included, is refused.
public enum JWSAlgorithm: String, Sendable, CaseIterable {
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    case rs256 = "RS256"
    /// ECDSA with P-256 and SHA-256.
    case es256 = "ES256"
}
