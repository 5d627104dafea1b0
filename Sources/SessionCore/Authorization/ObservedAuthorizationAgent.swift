import Foundation

/// Lets another agent show the page, and hands each authorization request it shows to
/// `onRequest` first: for legacy APIs that expose a request's values or report the moment a
/// sign-in is dispatched (GrabID's `LoginSession.state`, Google's `signInWillDispatch`).
///
/// Every step is the inner agent's: a loopback agent still listens on its own port, for a sign-in
/// and for a provider's sign-out page alike.
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

    /// Lets `inner` prepare, and watches the requests its session presents.
    public func prepare(configuredRedirectURI: URL, purpose: AgentPurpose) async throws -> any AgentSession {
        ObservedSession(inner: try await inner.prepare(configuredRedirectURI: configuredRedirectURI, purpose: purpose), onRequest: onRequest)
    }

    private struct ObservedSession: AgentSession {
        let inner: any AgentSession
        let onRequest: @Sendable (AuthorizationRequest) -> Void

        var redirectURI: URL { inner.redirectURI }

        func present(_ url: URL) async throws -> URL {
            try await inner.present(url)
        }

        func present(_ request: AuthorizationRequest) async throws -> URL {
            onRequest(request)
            return try await inner.present(request)
        }

        func finish(_ outcome: AgentOutcome) async {
            await inner.finish(outcome)
        }
    }
}
