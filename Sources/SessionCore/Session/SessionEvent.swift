import Foundation

/// What happened to a client's session on its own, whichever call caused it: the events an app
/// hears to keep its state in step (as AppAuth's state-change delegate and okta's refresh
/// notifications). A sign-in or a sign-out the app asked for is not one: the call reports it.
public enum SessionEvent: Sendable {
    /// The tokens were refreshed (and saved): the new ones.
    case tokensRefreshed(SessionTokens)
    /// The session ended without a sign-out: a refresh the provider refused or whose outcome is
    /// unknown, an expired access token without a refresh token, or a store that could not save
    /// new tokens. The error says which; the session is cleared in memory and in the store.
    case sessionLost(SessionError)
}

extension SessionClient {
    /// Sets the function that hears ``SessionEvent``s (nil: none). It is called on the client,
    /// synchronously, as each event happens — before the call that caused it returns — so it
    /// must return quickly and must not call back into the client; hand the event on instead.
    public func setEventHandler(_ handler: (@Sendable (SessionEvent) -> Void)?) {
        events.handler = handler
    }

    /// Tells the event handler, if any.
    func emit(_ event: SessionEvent) {
        events.handler?(event)
    }
}

/// Who hears a session's events, and what its log said once.
struct SessionEvents {
    /// Hears the session's ``SessionEvent``s.
    var handler: (@Sendable (SessionEvent) -> Void)?
    /// Whether the log already said that the provider's tokens live shorter than the leeway.
    var toldShortLifetime = false
}
