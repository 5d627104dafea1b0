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
        header("Content-Type")?.split(separator: ";", maxSplits: 1).first.map { ASCII.caseFolded(ASCII.trimmingWhitespace($0)) }
    }
}
