import Foundation

/// A PKCE pair (RFC 7636) using S256 only: `plain` is never produced or sent.
///
/// Only the challenge computation is public, for providers and tests that check a verifier.
public struct PKCE: Sendable {
    /// 43 base64url characters carrying 32 random bytes (§4.1).
    let verifier: String
    /// BASE64URL(SHA256(ASCII(verifier))) (§4.2).
    let challenge: String
    /// The one challenge method used: `S256`.
    public static let method = "S256"

    /// A fresh pair from the system CSPRNG.
    static func generate() throws -> PKCE {
        try PKCE(verifier: Base64URL.encode(PlatformCrypto.randomBytes(32)))
    }

    /// The pair for a given verifier.
    init(verifier: String) throws {
        self.verifier = verifier
        self.challenge = try Self.challenge(for: verifier)
    }

    /// The S256 challenge of `verifier`: BASE64URL(SHA256(ASCII(verifier))), RFC 7636 §4.2.
    /// - Throws: `cryptoFailure` when the platform cannot hash.
    public static func challenge(for verifier: String) throws -> String {
        Base64URL.encode(try PlatformCrypto.sha256(Data(verifier.utf8)))
    }
}
