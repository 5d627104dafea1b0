import Foundation
import SessionCore

/// Sign-in for a web application, one server-side session per browser login: the routes' logic
/// of a server framework's OpenID Connect client, framework-neutral. Each call takes a
/// ``WebRequest`` and gives back what to send (a ``WebResponse``: a redirect, `Set-Cookie` values).
///
/// It promises:
/// - a session's cookie holds 256 random bits; the store keeps only their SHA-256, so reading the
///   store does not let anyone act as a signed-in browser;
/// - a sign-in is finished only in the browser that began it (its pending part is sealed into, or
///   bound by, a cookie of that browser), and always under a new session identifier (no session
///   fixation); a new sign-in in a browser replaces its session and revokes the grant it replaces;
/// - a session ends when idle for ``WebSessionOptions/idleTimeout`` or older than
///   ``WebSessionOptions/absoluteTimeout``, and once ended nothing started earlier brings it back;
/// - sign-out refuses cross-site requests and ends the session here whatever the provider says
///   (only a store that cannot delete it stops it, and says so); revoking its grant is best effort,
///   and its outcome is reported;
/// - cookies are `HttpOnly`, `Secure`, `Path=/`, `SameSite=Lax`, named `__Host-` by default;
/// - no identifier, token, code or `state` appears in its logs or errors.
///
/// One `SessionClient` per session refreshes its tokens (kept in the session's store), shared by
/// every request that uses the session on this instance; the instance lets go of it once the
/// session has gone unused here for the idle timeout, so sessions ended or served elsewhere do not
/// pile up in its memory.
public actor WebSessions {
    /// The provider every session is on.
    public nonisolated let provider: OpenIDProvider
    /// Where sessions are kept.
    public nonisolated let store: WebSessionStore
    /// The cookies' names and the sessions' lifetimes.
    public nonisolated let options: WebSessionOptions
    let pending: PendingAuthorizationPlace
    /// The client of each session this instance served lately, refreshing its tokens.
    var clients = WebSessionClients()

    /// A layer signing browsers in at `provider`, their sessions in `store`.
    /// - Parameters:
    ///   - provider: the provider, shared with anything else on it.
    ///   - store: where the sessions are kept.
    ///   - pending: where a begun sign-in waits for its callback: sealed into the browser's cookie
    ///     (`.sealed(key, finishedIn:)`) or in a store the instances share (`.store(store)`), both
    ///     bound to the browser that began it.
    ///   - options: the cookies' names, the sessions' lifetimes, the application's origin.
    /// - Throws: `invalidConfiguration` for `.here` (a browser's callback may reach another
    ///   instance), an application origin that is neither https nor http on a loopback host,
    ///   cookie names that are not tokens, lifetimes that are not positive, a logout token's
    ///   maximum age that is not above 0 and at most a day.
    public init(provider: OpenIDProvider, store: WebSessionStore, pending: PendingAuthorizationPlace, options: WebSessionOptions) throws {
        if case .here = pending {
            throw Self.misconfigured("a web sign-in's pending part must be sealed or in a shared store, not in one instance's memory")
        }
        guard URLRules.isSecureEndpoint(options.appOrigin) else {
            throw Self.misconfigured("the application's origin must be https (or http on a loopback host)")
        }
        for name in [options.sessionCookieName, options.signInCookieName, options.signOutCookieName] where !WebCookie.isValidName(name) {
            throw Self.misconfigured("a cookie name must be a token (RFC 6265): '\(name)' is not")
        }
        for lifetime in [options.idleTimeout, options.absoluteTimeout, options.signInLifetime, options.touchInterval]
        where !(lifetime.isFinite && lifetime > 0) {
            throw Self.misconfigured("the web sessions' lifetimes must be positive numbers of seconds")
        }
        try LogoutToken.checkMaxAge(options.logoutTokenMaxAge, process: .configuration)
        self.provider = provider
        self.store = store
        self.pending = pending
        self.options = options
    }

    var clock: SessionClock { provider.clock }

    static func misconfigured(_ why: String) -> SessionError {
        SessionError(.invalidConfiguration, process: .configuration, message: why)
    }
}
