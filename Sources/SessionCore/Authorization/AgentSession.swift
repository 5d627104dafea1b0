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
