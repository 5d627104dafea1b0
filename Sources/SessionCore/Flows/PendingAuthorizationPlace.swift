import Foundation

/// Where a begun sign-in's pending part — its `state`, `nonce` and PKCE verifier — waits for the
/// callback: ``SessionClient/beginAuthorization(scopes:keepingIn:lifetime:)`` keeps it there and
/// ``SessionClient/completeAuthorization(callbackURL:keptIn:cookie:)`` takes it back.
public enum PendingAuthorizationPlace: Sendable {
    /// In this client's memory: the callback comes back to this client (an app, a tool, one
    /// server process).
    case here
    /// Sealed with the app's key into a value the browser carries (a cookie): any server with the
    /// key finishes it. `finishedIn`, a store the servers share, notes finished sign-ins, so a
    /// callback reloaded on another server sends nothing (nil: each process notes its own).
    case sealed(AuthorizationSealingKey, finishedIn: PendingAuthorizationStore? = nil)
    /// In a store the servers share, bound to the browser that began it by a ``BrowserBinding``
    /// the browser carries (a cookie).
    case store(PendingAuthorizationStore)
}

/// A sign-in begun: where to send the browser, and what it must carry back to the callback.
public struct BegunAuthorization: Sendable {
    /// The request: redirect the browser to its `url`.
    public let request: AuthorizationRequest
    /// What the browser carries to the callback — the sealed sign-in, or the store's binding — to
    /// set as a cookie named with the `__Host-` prefix, `HttpOnly`, `Secure`, `Path=/`,
    /// `SameSite=Lax`, living as long as the sign-in; nil when the sign-in is kept ``PendingAuthorizationPlace/here``.
    /// A secret: never log it.
    public let cookie: String?
}

/// The refusal of a callback whose pending part cannot be taken back: `stateMismatch`, saying why.
func pendingRefused(_ why: String) -> SessionError {
    SessionError(.stateMismatch, process: .authentication, message: "authorization response: \(why)")
}
