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
    /// String members of the latest token response beyond the standard ones, such as Google's
    /// `server_code`. They may be secrets: ``description`` does not show them.
    public let additionalParameters: [String: String]

    /// Creates a token set.
    public init(accessToken: String, refreshToken: String?, idToken: String?, expiresAt: Date?, scopes: [String], subject: String?,
                tokenType: String? = "Bearer", additionalParameters: [String: String] = [:]) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.expiresAt = expiresAt
        self.scopes = scopes
        self.subject = subject
        self.tokenType = tokenType
        self.additionalParameters = additionalParameters
    }

    private enum CodingKeys: String, CodingKey {
        case accessToken, refreshToken, idToken, expiresAt, scopes, subject, tokenType, additionalParameters
    }

    /// Decodes a token set; members added in later versions may be missing from a stored one.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
        idToken = try container.decodeIfPresent(String.self, forKey: .idToken)
        expiresAt = try container.decodeIfPresent(Date.self, forKey: .expiresAt)
        scopes = try container.decode([String].self, forKey: .scopes)
        subject = try container.decodeIfPresent(String.self, forKey: .subject)
        tokenType = try container.decodeIfPresent(String.self, forKey: .tokenType)
        additionalParameters = try container.decodeIfPresent([String: String].self, forKey: .additionalParameters) ?? [:]
    }

    /// True when the access token has expired or expires within `leeway` seconds of `now`.
    public func expires(within leeway: TimeInterval, of now: Date) -> Bool {
        guard let expiresAt else { return false }
        return expiresAt.timeIntervalSince(now) <= leeway
    }

    /// The same tokens with another access-token expiry (for tests and tools that simulate expiry).
    public func withExpiry(_ date: Date?) -> SessionTokens {
        SessionTokens(accessToken: accessToken, refreshToken: refreshToken, idToken: idToken, expiresAt: date, scopes: scopes, subject: subject,
                      tokenType: tokenType, additionalParameters: additionalParameters)
    }

    /// The same tokens with another access token (for compat layers whose apps set one).
    public func withAccessToken(_ token: String) -> SessionTokens {
        SessionTokens(accessToken: token, refreshToken: refreshToken, idToken: idToken, expiresAt: expiresAt, scopes: scopes, subject: subject,
                      tokenType: tokenType, additionalParameters: additionalParameters)
    }

    /// Which tokens are present and when the access token expires; never a token value.
    public var description: String {
        let expiry = expiresAt.map { "expires \(ISO8601DateFormatter().string(from: $0))" } ?? "no expiry"
        return "SessionTokens(access: <redacted>, refresh: \(refreshToken == nil ? "none" : "<redacted>"), "
            + "id: \(idToken == nil ? "none" : "<redacted>"), \(expiry), scopes: \(scopes.joined(separator: " ")), "
            + "subject: \(subject == nil ? "none" : "present"))"
    }
}
