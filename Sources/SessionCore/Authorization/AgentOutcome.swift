import Foundation

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
