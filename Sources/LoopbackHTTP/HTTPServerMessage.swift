import Foundation

/// A request as the server parsed it.
public struct HTTPServerRequest: Sendable {
    /// The method, e.g. `GET`.
    public let method: String
    /// The request target as sent: path and query.
    public let target: String
    /// Header fields in the order received; names as sent.
    public let headers: [(name: String, value: String)]
    /// The body (empty when there is none).
    public let body: Data

    /// Creates a request (the server does this; tests may too).
    public init(method: String, target: String, headers: [(name: String, value: String)], body: Data) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
    }

    /// The path part of the target, as sent (not percent-decoded).
    public var path: String { String(target.prefix { $0 != "?" }) }

    /// The query parameters, decoded as `application/x-www-form-urlencoded`, in order.
    public var queryItems: [(name: String, value: String)] {
        guard let mark = target.firstIndex(of: "?") else { return [] }
        return FormDecoding.decode(String(target[target.index(after: mark)...]))
    }

    /// The body decoded as `application/x-www-form-urlencoded`, in order.
    public var formItems: [(name: String, value: String)] {
        FormDecoding.decode(String(decoding: body, as: UTF8.self))
    }

    /// The first value of header `name`, compared without regard to case.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// A response to send.
public struct HTTPServerResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields; `Content-Length` and `Connection` are set by the server.
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: Data

    /// Creates a response.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response with a UTF-8 text body of the given media type.
    public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> HTTPServerResponse {
        HTTPServerResponse(status: status, headers: [("Content-Type", contentType)], body: Data(text.utf8))
    }
}

/// What the handler wants done with a request.
public enum HTTPServerReply: Sendable {
    /// Send this response.
    case respond(HTTPServerResponse)
    /// Close the connection without answering (for fault injection).
    case dropConnection
    /// Send this response, close the connection, then run `afterSending` on the connection's
    /// thread: for work that must not race with the answer, such as stopping the server.
    case respondThenClose(HTTPServerResponse, afterSending: @Sendable () -> Void)
}

/// `application/x-www-form-urlencoded` decoding.
enum FormDecoding {
    static func decode(_ text: String) -> [(name: String, value: String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func unescape(_ part: Substring) -> String {
                String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(part)
            }
            return (unescape(parts[0]), parts.count > 1 ? unescape(parts[1]) : "")
        }
    }
}
