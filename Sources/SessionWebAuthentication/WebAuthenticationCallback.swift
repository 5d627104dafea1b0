import Foundation
import SessionCore

/// What an in-app browser session (`ASWebAuthenticationSession`) must wait for to hand the
/// authorization response back, derived from the redirect URI: a private-use scheme (RFC 8252
/// §7.1) or an app-claimed https URL (§7.2, a universal link of the app's associated domain).
///
/// Loopback redirects (§7.3) are for `LoopbackBrowserAgent` (module SessionLoopback): an in-app browser session
/// cannot wait for an http URL.
public enum WebAuthenticationCallback: Sendable, Hashable {
    /// A redirect URI with this scheme, in lower case.
    case customScheme(String)
    /// An https redirect URI to this host and path (from iOS 17.4 and macOS 14.4).
    case https(host: String, path: String)

    /// The callback `redirectURI` calls for.
    /// - Throws: `SessionError` `invalidConfiguration` for an http URI, or an https URI
    ///   without a host.
    public init(redirectURI: URL) throws {
        guard let scheme = redirectURI.scheme?.lowercased() else {
            throw Self.unsuitable(redirectURI, "it has no scheme")
        }
        switch scheme {
        case "http":
            throw Self.unsuitable(redirectURI, "an in-app browser session cannot wait for an http URL; use LoopbackBrowserAgent")
        case "https":
            guard let host = redirectURI.host?.lowercased(), !host.isEmpty else { throw Self.unsuitable(redirectURI, "it has no host") }
            self = .https(host: host, path: redirectURI.path.isEmpty ? "/" : redirectURI.path)
        default:
            self = .customScheme(scheme)
        }
    }

    /// Whether `url`, which the browser session handed back, is a redirect this callback
    /// waits for: the same scheme and, for https, the same host and path.
    public func matches(_ url: URL) -> Bool {
        guard let scheme = url.scheme else { return false }
        switch self {
        case .customScheme(let expected):
            return ASCII.equalIgnoringCase(scheme, expected)
        case .https(let host, let path):
            // The redirect-URI rule every agent uses (AuthorizationRequest.isResponse).
            var expected = URLComponents()
            expected.scheme = "https"
            expected.host = host
            expected.path = path
            return expected.url.map { AuthorizationRequest.isResponse(url, to: $0) } ?? false
        }
    }

    private static func unsuitable(_ redirectURI: URL, _ why: String) -> SessionError {
        SessionError(.invalidConfiguration, process: .authentication,
                     message: "the redirect URI \(redirectURI.absoluteString) cannot be used with a web authentication session: \(why)")
    }
}
