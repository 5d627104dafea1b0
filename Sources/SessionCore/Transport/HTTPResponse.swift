import Foundation

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
        // Read in place: a split into substrings costs more than the rest of the check.
        guard let value = header("Content-Type") else { return nil }
        let type = value.firstIndex(of: ";").map { value[..<$0] } ?? value[...]
        let trimmed = ASCII.trimmingWhitespace(type)
        return trimmed.isEmpty ? nil : ASCII.caseFolded(trimmed)
    }
}
