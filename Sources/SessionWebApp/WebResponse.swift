import Foundation

/// What to send the browser: a status, where to go next, and the cookies to set or delete. Copy
/// it into your framework's response type; every response the layer makes is also `no-store`.
public struct WebResponse: Sendable, Equatable {
    /// The status: 303 for a redirect, 400 for a request refused as malformed, 403 for one
    /// refused as cross-site.
    public var status: Int
    /// Where a redirect goes.
    public var location: URL?
    /// The `Set-Cookie` header values, each its own header line.
    public var setCookies: [String]

    /// A response of `status`, optionally a redirect to `location`, setting `setCookies`.
    public init(status: Int, location: URL? = nil, setCookies: [String] = []) {
        self.status = status
        self.location = location
        self.setCookies = setCookies
    }

    /// Every header line to send: `Location`, each `Set-Cookie`, and `Cache-Control: no-store`
    /// (a page that sets a session must not be cached by anyone).
    public var headers: [(name: String, value: String)] {
        var lines: [(name: String, value: String)] = []
        if let location { lines.append(("Location", location.absoluteString)) }
        lines += setCookies.map { ("Set-Cookie", $0) }
        lines.append(("Cache-Control", "no-store"))
        return lines
    }

    /// A 303 to `location` (the browser follows it with a GET), setting `cookies`.
    static func seeOther(_ location: URL, setting cookies: [String]) -> WebResponse {
        WebResponse(status: 303, location: location, setCookies: cookies)
    }
}
