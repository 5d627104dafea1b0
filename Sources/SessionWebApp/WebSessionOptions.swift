import Foundation
import SessionCore

/// How a ``WebSessions`` layer names its cookies and how long its sessions live. The defaults are
/// what a web application signing people in should start from.
public struct WebSessionOptions: Sendable {
    /// The application's origin (`https://app.example.com`): a state-changing request must come
    /// from it, and its redirects stay on it.
    public var appOrigin: URL
    /// Where the browser goes after signing in, unless the call says otherwise (default: the origin's `/`).
    public var signedInURL: URL
    /// Where the browser goes after signing out (default: the origin's `/`).
    public var signedOutURL: URL
    /// The session cookie's name (default `__Host-session`: only this host, `Path=/`, `Secure`).
    public var sessionCookieName = "__Host-session"
    /// The cookie that carries a begun sign-in to the callback (default `__Host-signin`).
    public var signInCookieName = "__Host-signin"
    /// The cookie that carries an RP-initiated sign-out's `state` to its return (default `__Host-signout`).
    public var signOutCookieName = "__Host-signout"
    /// A session unused this long ends (default 30 minutes); each use starts it again.
    public var idleTimeout: TimeInterval = 30 * 60
    /// A session this old ends however much it is used (default 12 hours).
    public var absoluteTimeout: TimeInterval = 12 * 60 * 60
    /// How long a begun sign-in may take (default 10 minutes).
    public var signInLifetime: TimeInterval = 600
    /// How often a session's last use is written back, at most (default one minute): a request a
    /// second does not write a second.
    public var touchInterval: TimeInterval = 60
    /// Whether a browser's new sign-in revokes the grant of the session it replaces (default true):
    /// otherwise every re-login leaves a live refresh token at the provider.
    public var revokesReplacedSessions = true
    /// How old a back-channel logout token may be (its `iat`), at most (default five minutes;
    /// above 0 and at most a day).
    public var logoutTokenMaxAge: TimeInterval = 300
    /// Whether ``WebSessions/sweep(limit:)`` revokes the grants of the sessions it deletes (default
    /// false: an expired session's refresh token is left to expire at the provider).
    public var revokesExpiredSessions = false

    /// Options for the application at `appOrigin` (scheme, host and port only).
    public init(appOrigin: URL) {
        self.appOrigin = appOrigin
        let root = URL(string: "/", relativeTo: appOrigin)?.absoluteURL ?? appOrigin
        signedInURL = root
        signedOutURL = root
    }

    /// The application's origin as browsers send it in `Origin`.
    var serializedOrigin: String { Self.origin(of: appOrigin) }

    /// `url`'s origin as browsers serialize it: `scheme://host[:port]`, lowercase, without the
    /// scheme's default port.
    static func origin(of url: URL) -> String {
        let scheme = url.scheme.map(ASCII.caseFolded) ?? ""
        let host = url.host.map(ASCII.caseFolded) ?? ""
        let port = url.port.flatMap { ($0 == 443 && scheme == "https") || ($0 == 80 && scheme == "http") ? nil : ":\($0)" } ?? ""
        return "\(scheme)://\(host)\(port)"
    }
}
