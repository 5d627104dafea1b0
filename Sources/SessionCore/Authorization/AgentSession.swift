import Foundation

/// One page an ``AuthorizationAgent`` shows: made ready by
/// ``AuthorizationAgent/prepare(configuredRedirectURI:purpose:)``, presented once, finished once.
///
/// The client that prepared it calls ``finish(_:)`` exactly once, whatever happened: with what it
/// made of the redirect once ``present(_:)-(URL)`` returned one, or with ``AgentOutcome/abandoned``
/// when it never presented or the presentation failed. The session releases what it holds (a
/// listener, a page) there.
public protocol AgentSession: Sendable {
    /// Where the redirect will arrive; the request is built with it.
    var redirectURI: URL { get }

    /// Shows `url` and returns the redirect that addresses ``redirectURI``.
    /// - Throws: `cancelled` when the user gave up or the task was cancelled; the agent's errors.
    func present(_ url: URL) async throws -> URL

    /// Shows an authorization request. The default presents `request.url`; an agent that wraps
    /// another may look at the request first (``ObservedAuthorizationAgent``).
    func present(_ request: AuthorizationRequest) async throws -> URL

    /// Tells the session what the client made of the redirect, and ends it. The default does nothing.
    func finish(_ outcome: AgentOutcome) async
}

extension AgentSession {
    /// Presents `request.url`.
    public func present(_ request: AuthorizationRequest) async throws -> URL {
        try await present(request.url)
    }

    /// Nothing to release.
    public func finish(_ outcome: AgentOutcome) async {}
}

/// What the client made of the redirect a session brought back, for the session to tell the user
/// (a loopback agent answers the browser with it).
public enum AgentOutcome: Sendable {
    /// The redirect is the response the client waited for: it goes on (exchanges the code).
    case accepted
    /// The redirect was refused with this error: the provider's (`accessDenied`, ...) or the
    /// client's (`stateMismatch`, ...).
    case refused(SessionError)
    /// No redirect was judged: the request was never presented, the presentation failed, or the
    /// client stopped waiting.
    case abandoned
}
