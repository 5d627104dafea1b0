import Foundation
import SessionCore

/// An ``AuthorizationAgent`` without a browser: it requests the authorization URL, follows the
/// provider's redirects with the cookies it was given, and returns as soon as a redirect
/// addresses the redirect URI.
///
/// Against ``LocalProvider`` nothing more is needed: consent is scripted there. For a provider
/// with login and consent pages, `pageHandler` plays the user: given a page, it returns the form
/// to submit, or nil to give up (which ends the authorization as `cancelled`, like a user
/// closing the window).
public struct HeadlessUserAgent: AuthorizationAgent {
    /// A page the provider showed instead of redirecting.
    public struct Page: Sendable {
        /// The page's URL.
        public let url: URL
        /// The status code.
        public let status: Int
        /// The body as UTF-8 text.
        public let body: String
        /// The cookies held for the provider at this point, by name.
        public let cookies: [String: String]
    }

    /// A form the user submits.
    public struct Submission: Sendable {
        /// Where the form goes (relative URLs resolve against the page).
        public let url: URL
        /// `POST` or `GET`.
        public let method: String
        /// The form fields, in order.
        public let fields: [(name: String, value: String)]
        /// Headers to add, e.g. a `Referer` a provider checks.
        public let headers: [String: String]

        /// Creates a submission.
        public init(url: URL, method: String = "POST", fields: [(name: String, value: String)], headers: [String: String] = [:]) {
            self.url = url
            self.method = method
            self.fields = fields
            self.headers = headers
        }
    }

    /// Decides what the user does on a page.
    public typealias PageHandler = @Sendable (Page) throws -> Submission?

    private let transport: HTTPTransport
    private let maximumSteps: Int
    private let pageHandler: PageHandler?

    /// Creates an agent.
    /// - Parameters:
    ///   - transport: how requests are sent; it must not follow redirects itself for requests
    ///     that forbid it (the package's transports do not). Default: the platform's.
    ///   - maximumSteps: requests allowed before the agent gives up (default 12).
    ///   - pageHandler: plays the user on pages; nil gives up on the first page.
    public init(transport: HTTPTransport = PlatformDefaults.httpTransport(), maximumSteps: Int = 12, pageHandler: PageHandler? = nil) {
        self.transport = transport
        self.maximumSteps = maximumSteps
        self.pageHandler = pageHandler
    }

    /// Follows the authorization flow until a redirect to `redirectURI`, and returns that URL.
    /// - Throws: `cancelled` when a page has no way on; `unexpectedResponse` for an error status
    ///   or too many steps; transport errors as ``SessionError``.
    public func authorize(url: URL, redirectURI: URL) async throws -> URL {
        var cookies = CookieJar()
        var next = HTTPRequest(method: "GET", url: url, headers: ["Accept": "text/html"], followsRedirects: false)
        for _ in 0..<maximumSteps {
            next.headers["Cookie"] = cookies.header
            let response: HTTPResponse
            do {
                response = try await transport.send(next)
            } catch let error as HTTPTransportError {
                let code: SessionError.Code = switch error.kind {
                case .cancelled: .cancelled
                case .cannotConnect: .cannotConnect
                default: .networkError
                }
                throw SessionError(code, process: .authentication,
                                   message: "headless agent: \(error.detail)")
            }
            if let setCookie = response.header("Set-Cookie") { cookies.store(setCookie) }
            switch response.status {
            case 300..<400:
                guard let location = response.header("Location"), let target = URL(string: location, relativeTo: next.url)?.absoluteURL else {
                    throw Self.failure("a redirect without a usable Location", status: response.status)
                }
                if AuthorizationRequest.isResponse(target, to: redirectURI) { return target }
                next = HTTPRequest(method: "GET", url: target, headers: ["Accept": "text/html"], followsRedirects: false)
            case 200..<300:
                let page = Page(url: next.url, status: response.status, body: String(decoding: response.body, as: UTF8.self),
                                cookies: cookies.values)
                guard let submission = try pageHandler?(page) else {
                    throw SessionError.cancelled(detail: "the headless agent met a page with no way on, so the user closed it")
                }
                next = Self.request(for: submission, from: next.url)
            default:
                throw Self.failure("the provider answered with an error status", status: response.status)
            }
        }
        throw Self.failure("no redirect to the app after \(maximumSteps) requests", status: nil)
    }

    private static func request(for submission: Submission, from page: URL) -> HTTPRequest {
        let target = URL(string: submission.url.relativeString, relativeTo: page)?.absoluteURL ?? submission.url
        let encoded = FormEncoding.encode(submission.fields.map { ($0.name, $0.value) })
        var headers = submission.headers
        headers["Accept"] = "text/html"
        if submission.method.uppercased() == "GET" {
            var components = URLComponents(url: target, resolvingAgainstBaseURL: false)
            components?.percentEncodedQuery = encoded
            return HTTPRequest(method: "GET", url: components?.url ?? target, headers: headers, followsRedirects: false)
        }
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        return HTTPRequest(method: "POST", url: target, headers: headers, body: Data(encoded.utf8), followsRedirects: false)
    }

    private static func failure(_ why: String, status: Int?) -> SessionError {
        SessionError(.unexpectedResponse, process: .authentication, message: "headless agent: \(why)", httpStatus: status)
    }
}

/// The cookies of one authorization, from `Set-Cookie` headers (which Foundation joins with commas).
package struct CookieJar {
    package private(set) var values: [String: String] = [:]

    package init() {}

    /// The `Cookie` header to send, nil when empty.
    package var header: String? {
        values.isEmpty ? nil : values.keys.sorted().map { "\($0)=\(values[$0] ?? "")" }.joined(separator: "; ")
    }

    /// Takes every cookie of a (possibly joined) `Set-Cookie` value; `Max-Age=0` deletes.
    package mutating func store(_ setCookie: String) {
        for cookie in Self.split(setCookie) {
            let attributes = cookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let pair = attributes.first, let equals = pair.firstIndex(of: "=") else { continue }
            let name = String(pair[..<equals])
            let deletes = attributes.dropFirst().contains { $0.lowercased() == "max-age=0" }
            values[name] = deletes ? nil : String(pair[pair.index(after: equals)...])
        }
    }

    /// Splits joined cookies at commas that start a new `name=` (an `Expires` date has a comma too).
    private static func split(_ header: String) -> [String] {
        var cookies: [String] = []
        for piece in header.components(separatedBy: ",") {
            let trimmed = piece.trimmingCharacters(in: .whitespaces)
            let head = trimmed.prefix { $0 != "=" }
            let startsCookie = head.count < trimmed.count && !head.contains(";") && !head.contains(" ")
            if startsCookie || cookies.isEmpty {
                cookies.append(trimmed)
            } else {
                cookies[cookies.count - 1] += "," + piece
            }
        }
        return cookies
    }
}
