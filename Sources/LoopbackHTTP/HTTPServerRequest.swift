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
        headers.first { FieldName.equal($0.name, name) }?.value
    }
}
