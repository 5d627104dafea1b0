import Foundation

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
