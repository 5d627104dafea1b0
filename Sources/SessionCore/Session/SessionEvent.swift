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
    /// A protected resource refused a request for want of more than the session's token carries
    /// (``StepUp``), and the client is signing in again through the app's agent to ask for it
    /// (``SessionClient/sendAuthorized(_:process:purpose:signingInAgainWith:maximumSignIns:scopesWhenUnnamed:)``).
    case stepUpRequired(StepUp)
}

/// Who hears a session's events, and what its log said once.
struct SessionEvents {
    /// Hears the session's ``SessionEvent``s.
    var handler: (@Sendable (SessionEvent) -> Void)?
    /// Whether the log already said that the provider's tokens live shorter than the leeway.
    var toldShortLifetime = false

    /// Says once in the log when the provider's access tokens live shorter than the refresh
    /// leeway: they are then refreshed earlier than asked (``SessionTokens/effectiveLeeway(_:)``).
    mutating func noteLifetime(of tokens: SessionTokens, leeway: TimeInterval, log: LogSink) {
        guard let lifetime = tokens.lifetime, lifetime < leeway, !toldShortLifetime else { return }
        toldShortLifetime = true
        log(.info, "the provider's access tokens live \(wholeSeconds(lifetime)) s, less than the refresh leeway of "
            + "\(wholeSeconds(leeway)) s: they are refreshed \(wholeSeconds(tokens.effectiveLeeway(leeway))) s before they expire instead")
    }
}
