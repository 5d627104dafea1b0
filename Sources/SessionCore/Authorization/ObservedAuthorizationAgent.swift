import Foundation

/// Lets another agent show the authorization page, and hands the request it shows to
/// `onRequest` first: for legacy APIs that expose a request's values or report the moment a
/// sign-in is dispatched (GrabID's `LoginSession.state`, Google's `signInWillDispatch`).
public struct ObservedAuthorizationAgent: AuthorizationAgent {
    /// The agent that shows the page.
    public let inner: AuthorizationAgent
    /// Called with each request once it is built, before `inner` shows it.
    public let onRequest: @Sendable (AuthorizationRequest) -> Void

    /// Wraps `inner`.
    public init(_ inner: AuthorizationAgent, onRequest: @escaping @Sendable (AuthorizationRequest) -> Void) {
        self.inner = inner
        self.onRequest = onRequest
    }

    /// Lets `inner` present `url`.
    public func authorize(url: URL, redirectURI: URL) async throws -> URL {
        try await inner.authorize(url: url, redirectURI: redirectURI)
    }

    /// Lets `inner` present a page that is not an authorization (a provider's sign-out page), as
    /// it would without the wrapper: a loopback agent listens first, on its own port.
    public func present(configuredRedirectURI: URL, buildURL: @Sendable (URL) async throws -> URL) async throws -> URL {
        try await inner.present(configuredRedirectURI: configuredRedirectURI, buildURL: buildURL)
    }

    /// Lets `inner` build and present the request, reporting it to `onRequest` as it is built.
    public func authorize(configuredRedirectURI: URL, buildRequest: @Sendable (URL) async throws -> AuthorizationRequest) async throws -> URL {
        try await inner.authorize(configuredRedirectURI: configuredRedirectURI) { [onRequest] redirectURI in
            let request = try await buildRequest(redirectURI)
            onRequest(request)
            return request
        }
    }
}
