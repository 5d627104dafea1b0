import Foundation
import SessionCore

/// What the web session layer needs of a request, whatever the server framework: its method, the
/// URL the browser asked for (scheme, host and query included), and three headers. Build one from
/// your framework's request type (see <doc:UsingItWithAServerFramework>).
public struct WebRequest: Sendable {
    /// The request method, as sent (`GET`, `POST`).
    public var method: String
    /// The URL as the browser asked for it: for the callback, with the provider's query.
    public var url: URL
    /// The `Cookie` header, nil when the browser sent none.
    public var cookie: String?
    /// The `Origin` header, nil when the browser sent none.
    public var origin: String?
    /// The `Sec-Fetch-Site` header (`same-origin`, `same-site`, `cross-site`, `none`), nil when
    /// the browser sent none.
    public var fetchSite: String?

    /// A request of `method` for `url` with the given headers.
    public init(method: String = "GET", url: URL, cookie: String? = nil, origin: String? = nil, fetchSite: String? = nil) {
        self.method = method
        self.url = url
        self.cookie = cookie
        self.origin = origin
        self.fetchSite = fetchSite
    }

    /// A request of `method` for `url`, its headers looked up in `headers` without regard to the
    /// case of their names (the first of a repeated header).
    public init(method: String, url: URL, headers: [(name: String, value: String)]) {
        func header(_ name: String) -> String? {
            headers.first { ASCII.equalIgnoringCase($0.name, name) }?.value
        }
        self.init(method: method, url: url, cookie: header("Cookie"), origin: header("Origin"), fetchSite: header("Sec-Fetch-Site"))
    }

    /// The value of the cookie `name`, nil when the request has none or more than one of that
    /// name (a second one may have been planted by a sibling domain).
    func cookie(named name: String) -> String? {
        guard let cookie else { return nil }
        let values = cookie.split(separator: ";").compactMap { pair -> Substring? in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, Exact.equal(parts[0].trimmingCharacters(in: .whitespaces), name) else { return nil }
            return parts[1]
        }
        guard values.count == 1 else { return nil }
        let value = values[0].trimmingCharacters(in: .whitespaces)
        return value.isEmpty ? nil : value
    }
}
