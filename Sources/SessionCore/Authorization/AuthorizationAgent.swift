import Foundation

/// Shows the authorization page to the user and brings back the redirect.
///
/// Given the authorization URL and the redirect URI, an agent returns the URL the provider
/// redirected to, or throws ``SessionError`` `cancelled` when the user gave up. It does not
/// validate the response; ``SessionClient`` does.
public protocol AuthorizationAgent: Sendable {
    /// Presents `url` and returns the callback URL that starts with `redirectURI`.
    func authorize(url: URL, redirectURI: URL) async throws -> URL
}
