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
    /// Whether the transport may follow a 3xx redirect. Token and revocation calls set false.
    public var followsRedirects: Bool

    /// Creates a request.
    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil, followsRedirects: Bool = true) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.followsRedirects = followsRedirects
    }

    /// True for the idempotent methods (RFC 9110 §9.2.2: GET, HEAD, OPTIONS, PUT, DELETE), which
    /// may be sent again after a refused token without doing twice what they ask.
    var mayBeSentTwice: Bool {
        // Method names are case-sensitive (RFC 9110 §9.1): "get" is not GET.
        Exact.contains(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"], method)
    }

    /// This request with `Authorization: Bearer token`, replacing any Authorization header (any spelling).
    func authorized(with token: String) -> HTTPRequest {
        var authorized = self
        authorized.headers = headers.filter { !ASCII.equalIgnoringCase($0.key, "Authorization") }
        authorized.headers["Authorization"] = "Bearer \(token)"
        return authorized
    }

    /// A form-encoded POST (`application/x-www-form-urlencoded`) that accepts JSON.
    static func formPost(_ url: URL, _ parameters: [(String, String)], followsRedirects: Bool = false) -> HTTPRequest {
        HTTPRequest(
            method: "POST",
            url: url,
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
            body: Data(FormEncoding.encode(parameters).utf8),
            followsRedirects: followsRedirects
        )
    }
}
