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

/// An HTTP response as the transport received it.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code.
    public var status: Int
    /// Header fields. Look them up with ``header(_:)``, which ignores case.
    public var headers: [String: String]
    /// The body, at most the transport's size cap.
    public var body: Data

    /// Creates a response.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of header `name`, compared without regard to case.
    public func header(_ name: String) -> String? {
        headers.first { ASCII.equalIgnoringCase($0.key, name) }?.value
    }

    /// The media type of the body without parameters, lowercased.
    var mediaType: String? {
        header("Content-Type")?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }
}

/// Sends HTTP requests for the core. Implement it to route traffic through your own stack or
/// to fake the network in tests; ``URLSessionTransport`` is the default.
///
/// Implementations throw ``HTTPTransportError`` (any other error is treated as a network
/// failure whose outcome at the server is unknown) and must not follow redirects when
/// ``HTTPRequest/followsRedirects`` is false.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response, whatever its status.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

/// Why a request got no usable response.
public struct HTTPTransportError: Error, Sendable, Equatable {
    /// The kinds of transport failure.
    public enum Kind: Sendable, Equatable {
        /// No connection could be made; the request was certainly not processed.
        case cannotConnect
        /// No complete response arrived in time; the server may have processed the request.
        case timedOut
        /// The connection broke after the request was sent; the server may have processed it.
        case connectionLost
        /// The body exceeded the transport's size cap.
        case responseTooLarge
        /// The task was cancelled.
        case cancelled
    }

    /// What happened.
    public var kind: Kind
    /// A short description without secrets (no URLs with query strings, no bodies).
    public var detail: String

    /// Creates a transport error.
    public init(_ kind: Kind, detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// False only when the request certainly never reached the server.
    public var mayHaveReachedServer: Bool { kind != .cannotConnect }
}

/// `application/x-www-form-urlencoded` encoding as the WHATWG URL standard defines it.
enum FormEncoding {
    static func encode(_ parameters: [(String, String)]) -> String {
        parameters.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    /// Every UTF-8 byte but `A-Z a-z 0-9 - . _ *` as `%XX` (uppercase hex).
    static func escape(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "*"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
