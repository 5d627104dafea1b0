import Foundation
import SessionCore

/// One browser's signed-in session, as a request found it: whose it is, and the client that holds
/// its tokens (refreshed when due, shared by every request on this instance).
public struct WebSession: Sendable {
    /// The session's ID in the store.
    public let id: WebSessionID
    /// The signed-in user (the ID token's `sub`).
    public let subject: String?
    /// The provider's session (the ID token's `sid`), when it gave one.
    public let providerSessionID: String?
    /// When the browser signed in.
    public let createdAt: Date
    /// The token a page puts in its sign-out form (a hidden field), for browsers that send neither
    /// `Origin` nor `Sec-Fetch-Site`: derived from the session's cookie, so it is this browser's and
    /// nobody else can make it. Not a secret worth more than the form it protects.
    public let csrfToken: String
    /// The session's client: `SessionClient/validTokens()`, `SessionClient/userInfo()`,
    /// `SessionClient/sendAuthorized(_:process:purpose:credential:)` and the rest, on this
    /// session's tokens.
    public let client: SessionClient

    /// The session's UserInfo, its access token refreshed first when due.
    public func userInfo() async throws -> UserInfo {
        try await client.userInfo()
    }

    /// The token a page's form carries for the session whose cookie holds `identifier`.
    static func csrfToken(for identifier: String) -> String {
        (try? PlatformCrypto.hexDigest(of: "csrf:" + identifier, bytes: 32)) ?? ""
    }
}
