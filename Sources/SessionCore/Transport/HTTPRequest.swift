import Foundation

/// An HTTP request as the core builds it.
public struct HTTPRequest: Sendable, Equatable {
    /// `GET` or `POST`.
    public var method: String
    /// The absolute URL.
    public var url: URL
    /// Header fields; names as sent.
    public var headers: [String: String]
    /// The body, if any.
    public var body: Data?
    /// Which 3xx redirects the transport may follow (``Redirects/allows(from:to:body:)``).
    public var redirects: Redirects

    /// Which redirects a request may follow. Whatever the rule, a request with a body follows
    /// none (it would be sent again, secrets in its body, to wherever the server says), and none
    /// leads to a URL the configuration's endpoint rule refuses: https, or http on a loopback host.
    public enum Redirects: Sendable, Equatable {
        /// None: the 3xx response is the answer (token, revocation and browser steps).
        case never
        /// Only to the request's own origin (scheme, host and port): the provider's documents,
        /// which OpenID Connect Discovery puts at the issuer's own URLs.
        case withinOrigin
        /// To any URL the endpoint rule accepts (resource requests); `Authorization` is not
        /// carried to another origin.
        case toSecureEndpoints

        /// True when a request with `body` following this rule may go on from `current` to `target`.
        public func allows(from current: URL, to target: URL, body: Data?) -> Bool {
            guard self != .never, body == nil, URLRules.isSecureEndpoint(target) else { return false }
            return self == .toSecureEndpoints || URLRules.sameOrigin(current, target)
        }
    }

    /// Whether the transport may follow a 3xx redirect at all: false is ``Redirects/never``, true
    /// ``Redirects/toSecureEndpoints``.
    public var followsRedirects: Bool {
        get { redirects != .never }
        set { redirects = newValue ? .toSecureEndpoints : .never }
    }

    /// Creates a request; `followsRedirects` false is ``Redirects/never``, true (the default)
    /// ``Redirects/toSecureEndpoints``.
    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil, followsRedirects: Bool = true) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        redirects = followsRedirects ? .toSecureEndpoints : .never
    }

    /// True for the idempotent methods (RFC 9110 §9.2.2: GET, HEAD, OPTIONS, PUT, DELETE), which
    /// may be sent again after a refused token without doing twice what they ask.
    var mayBeSentTwice: Bool {
        // Method names are case-sensitive (RFC 9110 §9.1): "get" is not GET.
        Exact.contains(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"], method)
    }

    /// This request with `Authorization: <scheme> token` (`Bearer` or `DPoP`), replacing any
    /// Authorization header (any spelling).
    func authorized(with token: String, scheme: String = "Bearer") -> HTTPRequest {
        var authorized = self
        for name in headers.keys where ASCII.equalIgnoringCase(name, "Authorization") {
            authorized.headers[name] = nil
        }
        authorized.headers["Authorization"] = "\(scheme) \(token)"
        return authorized
    }

    /// A form-encoded POST (`application/x-www-form-urlencoded`) that accepts JSON.
    package static func formPost(_ url: URL, _ parameters: [(String, String)], followsRedirects: Bool = false) -> HTTPRequest {
        HTTPRequest(
            method: "POST",
            url: url,
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
            body: Data(FormEncoding.encode(parameters).utf8),
            followsRedirects: followsRedirects
        )
    }
}
