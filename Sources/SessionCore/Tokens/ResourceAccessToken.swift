import Foundation

/// An access token issued for one resource (RFC 8707 §2.2): asked for with the session's refresh
/// token and `resource`, kept with the session's tokens (``SessionTokens/resourceTokens``) in
/// every store, refreshed on its own, and sent only to requests that resource covers.
///
/// ``description`` never shows the token, nor does `dump`.
public struct ResourceAccessToken: Sendable, Equatable, Codable, CustomStringConvertible, CustomReflectable {
    /// The resource indicator the token was asked for, as sent.
    public let resource: String
    /// The access token (a secret).
    public let accessToken: String
    /// The `token_type` as the provider spelled it: `Bearer`, or `DPoP` for a token bound to the
    /// session's DPoP key.
    public let tokenType: String
    /// When the token expires; nil when the provider did not say.
    public let expiresAt: Date?
    /// The seconds it was issued for (`expires_in`), when given.
    public let lifetime: TimeInterval?
    /// The granted scopes (the answer's `scope`, or the session's when it gave none).
    public let scopes: [String]

    /// Creates a resource token.
    public init(resource: String, accessToken: String, tokenType: String = "Bearer", expiresAt: Date?, lifetime: TimeInterval? = nil,
                scopes: [String]) {
        self.resource = resource
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresAt = expiresAt
        self.lifetime = lifetime
        self.scopes = scopes
    }

    /// True for a token bound to the session's DPoP key: it is sent with a proof of that key.
    public var isDPoPBound: Bool { ASCII.equalIgnoringCase(tokenType, "DPoP") }

    /// True when the token has expired or expires within `leeway` seconds of `now` (at most half
    /// its lifetime), the rule of ``SessionTokens/expires(within:of:)``.
    public func expires(within leeway: TimeInterval, of now: Date) -> Bool {
        expiresAt.map { SessionTokens.expiry($0, isWithin: SessionTokens.effectiveLeeway(leeway, lifetime: lifetime), of: now) } ?? false
    }

    /// The resource and the expiry; never the token.
    public var description: String {
        let expiry = expiresAt.map { "expires \(ISO8601DateFormatter().string(from: $0))" } ?? "no expiry"
        return "ResourceAccessToken(\(resource), access: <redacted>, \(tokenType), \(expiry), scopes: \(scopes.joined(separator: " ")))"
    }

    /// What `dump` shows: the ``description``.
    public var customMirror: Mirror { Mirror(self, children: ["token": description], displayStyle: .struct) }
}
