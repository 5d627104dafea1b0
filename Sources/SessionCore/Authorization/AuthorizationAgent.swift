import Foundation

/// Shows the provider's page to the user and brings back the redirect, in two steps:
/// ``prepare(configuredRedirectURI:purpose:)`` gets ready to receive the redirect and says where
/// it will arrive (``AgentSession/redirectURI``); the client builds its request for that URI and
/// hands it to ``AgentSession/present(_:)-(URL)``, which returns the redirect.
///
/// An agent that receives the redirect where the configuration says — a system browser sheet, the
/// app's own URL handler — implements only ``authorize(url:redirectURI:)``; the default
/// ``prepare(configuredRedirectURI:purpose:)`` presents through it. An agent that must choose
/// the redirect URI itself (a loopback listener on an ephemeral port, RFC 8252 §7.3) implements
/// ``prepare(configuredRedirectURI:purpose:)``.
///
/// An agent returns the URL the provider redirected to, or throws ``SessionError`` `cancelled`
/// when the user gave up. It does not judge the response: the client does, once, and tells the
/// session what it made of it (``AgentSession/finish(_:)``).
public protocol AuthorizationAgent: Sendable {
    /// Presents `url` and returns the callback URL that addresses `redirectURI`.
    func authorize(url: URL, redirectURI: URL) async throws -> URL

    /// Gets ready to receive a redirect for `purpose` and returns the session that will present
    /// the page. The session's redirect URI is `configuredRedirectURI` or, when that is an http
    /// loopback URI without a port, the same URI with the port listened on; the client refuses
    /// any other.
    ///
    /// The default presents through ``authorize(url:redirectURI:)`` at `configuredRedirectURI`.
    func prepare(configuredRedirectURI: URL, purpose: AgentPurpose) async throws -> any AgentSession
}

extension AuthorizationAgent {
    /// A session that presents through ``authorize(url:redirectURI:)`` at `configuredRedirectURI`.
    public func prepare(configuredRedirectURI: URL, purpose: AgentPurpose) async throws -> any AgentSession {
        OneStepAgentSession(agent: self, redirectURI: configuredRedirectURI)
    }
}

/// The session of an agent that presents in one step, at the configured redirect URI.
private struct OneStepAgentSession: AgentSession {
    let agent: AuthorizationAgent
    let redirectURI: URL

    func present(_ url: URL) async throws -> URL {
        try await agent.authorize(url: url, redirectURI: redirectURI)
    }
}
