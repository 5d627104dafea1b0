import Foundation
import SessionCore

/// The tokens of a YeboID session, as YeboID for Swift hands them out.
public struct YeboIDTokens: Sendable, Equatable {
    /// The bearer token for the app's own API.
    public let accessToken: String
    /// The refresh token (`offline_access`); nil when the provider gave none.
    public let refreshToken: String?
    /// The ID token. Never authorize an API call with it.
    public let idToken: String?
    /// When the access token expires; nil when the provider did not say.
    public let expiresAt: Date?
    /// The scopes the token response granted (its `scope`, or what was asked for when it names none).
    public let grantedScopes: [String]

    init(_ tokens: SessionTokens) {
        accessToken = tokens.accessToken
        refreshToken = tokens.refreshToken
        idToken = tokens.idToken
        expiresAt = tokens.expiresAt
        grantedScopes = tokens.scopes
    }
}

extension YeboIDTokens: CustomStringConvertible {
    /// The expiry and scopes; never a token.
    public var description: String {
        "YeboIDTokens(expiresAt: \(expiresAt.map { "\($0)" } ?? "unknown"), grantedScopes: \(grantedScopes.joined(separator: " ")), tokens redacted)"
    }
}
