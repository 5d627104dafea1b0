import Foundation

/// The tokens of a signed-in session, as kept in memory and in a ``TokenStore``.
///
/// ``description`` never shows a token; print the value freely.
public struct SessionTokens: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The Bearer access token.
    public let accessToken: String
    /// The refresh token, when the provider issued one.
    public let refreshToken: String?
    /// The raw ID token of the latest sign-in or refresh, when there is one.
    public let idToken: String?
    /// When the access token expires; nil when the provider did not say.
    public let expiresAt: Date?
    /// The granted scopes (the token response's `scope`, or the requested ones).
    public let scopes: [String]
    /// The ID token's `sub`, when the session has an ID token.
    public let subject: String?
    /// The `token_type` as the provider spelled it (`Bearer`, `bearer`, ...); nil for sessions
    /// stored before it was kept.
    public let tokenType: String?

    /// Creates a token set.
    public init(accessToken: String, refreshToken: String?, idToken: String?, expiresAt: Date?, scopes: [String], subject: String?,
                tokenType: String? = "Bearer") {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.expiresAt = expiresAt
        self.scopes = scopes
        self.subject = subject
        self.tokenType = tokenType
    }

    /// True when the access token has expired or expires within `leeway` seconds of `now`.
    public func expires(within leeway: TimeInterval, of now: Date) -> Bool {
        guard let expiresAt else { return false }
        return expiresAt.timeIntervalSince(now) <= leeway
    }

    /// The same tokens with another access-token expiry (for tests and tools that simulate expiry).
    public func withExpiry(_ date: Date?) -> SessionTokens {
        SessionTokens(accessToken: accessToken, refreshToken: refreshToken, idToken: idToken, expiresAt: date, scopes: scopes, subject: subject,
                      tokenType: tokenType)
    }

    /// Which tokens are present and when the access token expires; never a token value.
    public var description: String {
        let expiry = expiresAt.map { "expires \(ISO8601DateFormatter().string(from: $0))" } ?? "no expiry"
        return "SessionTokens(access: <redacted>, refresh: \(refreshToken == nil ? "none" : "<redacted>"), "
            + "id: \(idToken == nil ? "none" : "<redacted>"), \(expiry), scopes: \(scopes.joined(separator: " ")), "
            + "subject: \(subject == nil ? "none" : "present"))"
    }
}
