import Foundation

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
    /// A short description without secrets (no URLs with query strings, no bodies): the cause in
    /// words, and the platform's code when there is one.
    public var detail: String
    /// The URL of the request that failed, when the error has passed through the client (which
    /// names it, query values redacted, in the ``SessionError`` it becomes).
    public var url: URL?

    /// Creates a transport error.
    public init(_ kind: Kind, detail: String, url: URL? = nil) {
        self.kind = kind
        self.detail = detail
        self.url = url
    }

    /// False only when the request certainly never reached the server.
    public var mayHaveReachedServer: Bool { kind != .cannotConnect }
}
