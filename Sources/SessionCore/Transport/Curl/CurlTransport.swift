#if canImport(CLibCurl)
import Foundation

/// The default ``HTTPTransport`` on Linux: libcurl, driven on one thread of its own, without
/// FoundationNetworking. It keeps nothing on disk (no cookies, no cache), verifies TLS
/// certificates against the system's roots, speaks only `http` and `https` (redirects included),
/// applies a per-request timeout and a cap on the response body, and follows redirects only
/// when the request allows it.
///
/// Bodiless requests reuse kept-alive connections; a request with a body always goes over a new
/// connection that is closed after it, so a connection the server closed at the wrong moment can
/// never make it sent twice, or sent without its body.
///
/// Unlike ``URLSessionTransport`` on Linux, it creates no directory in `$XDG_DATA_HOME`:
/// FoundationNetworking's cookie storage does, whether cookies are used or not.
public final class CurlTransport: HTTPTransport {
    /// Seconds a request may take, connection included, before it fails with
    /// ``HTTPTransportError/Kind/timedOut``.
    public let timeout: TimeInterval
    /// The largest response body accepted, in bytes (after content decoding); a larger one fails
    /// with ``HTTPTransportError/Kind/responseTooLarge``.
    public let maximumResponseSize: Int

    /// Creates a transport. Defaults: 30 s timeout, 1 MiB response cap.
    public init(timeout: TimeInterval = 30, maximumResponseSize: Int = 1 << 20) {
        self.timeout = timeout
        self.maximumResponseSize = maximumResponseSize
    }

    /// Sends `request`; see ``HTTPTransport/send(_:)``.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try Task.checkCancellation(orThrow: HTTPTransportError(.cancelled, detail: "the request was cancelled"))
        let driver = try CurlDriver.shared()
        let cancellation = CurlCancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                do {
                    let transfer = try CurlTransfer(request, timeout: timeout, maximumResponseSize: maximumResponseSize,
                                                    cancellation: cancellation, continuation: continuation)
                    driver.start(transfer)
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            if let transfer = cancellation.cancel() { driver.cancel(transfer) }
        }
    }
}

private extension Task where Success == Never, Failure == Never {
    static func checkCancellation(orThrow error: HTTPTransportError) throws {
        if isCancelled { throw error }
    }
}
#endif
