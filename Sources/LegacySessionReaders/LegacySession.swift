import Foundation
import SessionCore

/// A session a legacy SDK left on the device, as read from its storage: what carries it over is
/// the refresh token; the rest says whose session it is.
public struct LegacySession: Sendable, Equatable, CustomStringConvertible {
    /// The provider that issued it, when the legacy storage recorded one.
    public var issuer: URL?
    /// The client it was issued to, when the legacy storage recorded one.
    public var clientID: String?
    /// The token endpoint the legacy SDK refreshed at, when recorded: it names the provider of
    /// an SDK configured by endpoints rather than by issuer (Google Sign-In's).
    public var tokenEndpoint: URL?
    /// The refresh token.
    public var refreshToken: String
    /// The last access token; it is not used (an adopted session refreshes first).
    public var accessToken: String?
    /// The last ID token, when there was one; it gives the session its subject.
    public var idToken: String?
    /// The granted scopes.
    public var scopes: [String]

    /// Creates a legacy session.
    public init(issuer: URL?, clientID: String?, tokenEndpoint: URL? = nil, refreshToken: String, accessToken: String? = nil,
                idToken: String? = nil, scopes: [String] = []) {
        self.issuer = issuer
        self.clientID = clientID
        self.tokenEndpoint = tokenEndpoint
        self.refreshToken = refreshToken
        self.accessToken = accessToken
        self.idToken = idToken
        self.scopes = scopes
    }

    /// Why this session cannot be adopted under `configuration`, or nil when it can: its issuer
    /// and client must be known and be the configured ones, exactly.
    public func mismatch(with configuration: SessionConfiguration) -> String? {
        guard let issuer else { return "it does not say which provider issued it" }
        guard let clientID else { return "it does not say which client it was issued to" }
        // An issuer is compared byte for byte (OIDC Discovery §4.3), ignoring only a trailing slash.
        func trimmed(_ url: URL) -> String {
            let text = url.absoluteString
            return text.hasSuffix("/") ? String(text.dropLast()) : text
        }
        guard Exact.equal(trimmed(issuer), trimmed(configuration.issuer)) else { return "it was issued by another provider" }
        guard Exact.equal(clientID, configuration.clientID) else { return "it was issued to another client" }
        return nil
    }

    /// The session as ours: the access token already expired, so that the first use refreshes it.
    /// The legacy ID token is left out, and with it any identity: whoever could write the legacy
    /// SDK's storage could have written it (an `alg: none` token naming anyone), and it was never
    /// checked here. The identity comes from the first refresh's ID token, validated as every ID
    /// token is (signature against the provider's keys, `iss`, `aud`, expiry).
    public var tokens: SessionTokens {
        SessionTokens(accessToken: accessToken ?? "", refreshToken: refreshToken, idToken: nil,
                      expiresAt: Date(timeIntervalSince1970: 0), scopes: scopes, subject: nil)
    }

    /// Says what it holds without a token.
    public var description: String {
        "LegacySession(issuer: \(issuer?.absoluteString ?? "unknown"), client: \(clientID ?? "unknown"), "
            + "refresh token: \(refreshToken.count) characters, ID token: \(idToken == nil ? "none" : "present"), scopes: \(scopes))"
    }
}

/// Where a legacy SDK kept its session. `SessionService` asks it once, at the first successful
/// `initialize` that finds no session of its own: it reads the legacy session, adopts it when it
/// belongs to the configured provider and client, and removes the legacy copy only after its own
/// is saved. A source that cannot read what it finds throws; the legacy copy is then left alone.
public protocol LegacySessionSource: Sendable {
    /// A short name for log lines ("netID's UserDefaults", ...).
    var name: String { get }
    /// The legacy session, or nil when the legacy SDK left none.
    func legacySession() throws -> LegacySession?
    /// Deletes the legacy copy.
    func removeLegacySession() throws
}
