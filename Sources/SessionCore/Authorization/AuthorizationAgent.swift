import Foundation

/// Shows the authorization page to the user and brings back the redirect.
///
/// Given the authorization URL and the redirect URI, an agent returns the URL the provider
/// redirected to, or throws ``SessionError`` `cancelled` when the user gave up. It does not
/// validate the response; ``SessionClient`` does.
public protocol AuthorizationAgent: Sendable {
    /// Presents `url` and returns the callback URL that starts with `redirectURI`.
    func authorize(url: URL, redirectURI: URL) async throws -> URL

    /// The entry point ``SessionClient/signIn(scopes:agent:)`` calls. An agent that must choose
    /// the redirect URI itself (a loopback listener on an ephemeral port, RFC 8252 §7.3) calls
    /// `buildRequest` once with the URI it listens on and gets the request whose `url` it opens.
    ///
    /// The default implementation builds the request for `configuredRedirectURI` and calls
    /// ``authorize(url:redirectURI:)``.
    /// - Parameters:
    ///   - configuredRedirectURI: the configuration's redirect URI.
    ///   - buildRequest: makes the pending authorization request for a redirect URI and returns
    ///     it. Only the configured URI is accepted, or, when that is an http loopback URI
    ///     without a port, the same URI with a port.
    func authorize(configuredRedirectURI: URL, buildRequest: @Sendable (URL) async throws -> AuthorizationRequest) async throws -> URL

    /// Shows a page that is not an authorization — the provider's sign-out page of an
    /// RP-initiated logout — whose URL `buildURL` makes for the redirect URI the agent waits on,
    /// and returns the redirect. The default implementation builds it for `configuredRedirectURI`
    /// and calls ``authorize(url:redirectURI:)``; a loopback agent listens first, as for a sign-in.
    func present(configuredRedirectURI: URL, buildURL: @Sendable (URL) async throws -> URL) async throws -> URL
}

extension AuthorizationAgent {
    /// Builds the URL for the configured redirect URI and presents it.
    public func present(configuredRedirectURI: URL, buildURL: @Sendable (URL) async throws -> URL) async throws -> URL {
        try await authorize(url: try await buildURL(configuredRedirectURI), redirectURI: configuredRedirectURI)
    }

    /// Builds the request for the configured redirect URI and presents it.
    public func authorize(configuredRedirectURI: URL, buildRequest: @Sendable (URL) async throws -> AuthorizationRequest) async throws -> URL {
        let request = try await buildRequest(configuredRedirectURI)
        return try await authorize(url: request.url, redirectURI: configuredRedirectURI)
    }
}
