import Foundation

/// One account signed in at a provider, as its ID token names it: for a user to choose among
/// several (``AccountSessions``).
///
/// An account is its issuer and subject (OpenID Connect Core §2: `sub` is unique within its
/// issuer only); the rest is what the ID token says of it, for display.
public struct Account: Sendable, Hashable, Identifiable, CustomStringConvertible {
    /// The provider's issuer.
    public let issuer: String
    /// The `sub` the provider gave the user.
    public let subject: String
    /// The ID token's `name`, when it has one.
    public let name: String?
    /// The ID token's `email`, when it has one.
    public let email: String?
    /// When the user last authenticated at the provider: the ID token's `auth_time`, else when
    /// the ID token was issued (`iat`).
    public let signedInAt: Date?

    /// The issuer and subject together.
    public var id: String { "\(issuer)#\(subject)" }

    /// The account the validated ID token of `tokens` names; nil for a session without an ID
    /// token (no `openid` scope), which names no one.
    init?(tokens: SessionTokens, issuer: String) {
        guard let raw = tokens.idToken, let token = try? IDToken(raw), let subject = token.subject,
              Exact.equal(subject, tokens.subject) else { return nil }
        self.issuer = issuer
        self.subject = subject
        name = token.claims["name"]?.stringValue
        email = token.claims["email"]?.stringValue
        signedInAt = (token.claims["auth_time"]?.numberValue ?? token.claims["iat"]?.numberValue).map(Date.init(timeIntervalSince1970:))
    }

    /// The subject and issuer; never a token.
    public var description: String { "Account(\(subject) at \(issuer))" }
}
