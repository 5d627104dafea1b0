#if canImport(CLibCurl)
import Foundation

/// The default ``HTTPTransport`` on Linux: libcurl, driven on one thread of its own, without
/// FoundationNetworking. It keeps nothing on disk (no cookies, no cache), verifies TLS
/// certificates against the system's roots, speaks only `http` and `https`, applies a
/// per-request timeout and a cap on the response body and its header, and follows a redirect
/// only where the request's rule allows it (``HTTPRequest/Redirects``): it follows them itself,
/// hop by hop, at most ten, never with a body and never with `Authorization` to another origin.
///
/// Like every libcurl program, it honours the proxy the environment names (`http_proxy`,
/// `https_proxy`, `all_proxy`, `no_proxy`): whoever sets those for the process sees its plain
/// http requests, and the host names and timing of its https ones (TLS still ends at the server).
///
/// Bodiless requests reuse kept-alive connections; a request with a body always goes over a new
/// connection that is closed after it, so a connection the server closed at the wrong moment can
/// never make it sent twice, or sent without its body.
///
/// Unlike ``URLSessionTransport`` on Linux, it creates no directory in `$XDG_DATA_HOME`:
/// FoundationNetworking's cookie storage does, whether cookies are used or not.
public final class CurlTransport: HTTPTransport {
    /// Seconds a request may take, connection included, before it fails with
    /// ``HTTPTransportError/Kind/timedOut``: at least a millisecond, and at most about 24 days,
    /// the longest libcurl takes (a longer one, `infinity` included, is that).
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
        var current = request
        for _ in 0...Self.maximumRedirects {
            let response = try await sendOnce(current)
            guard [301, 302, 303, 307, 308].contains(response.status), request.redirects != .never,
                  let location = response.header("Location") else { return response }
            guard let target = URL(string: location, relativeTo: current.url)?.absoluteURL,
                  request.redirects.allows(from: current.url, to: target, body: request.body) else {
                throw HTTPTransportError(.connectionLost, detail: request.body != nil
                    ? "the server redirected a request with a body, which is never sent again"
                    : "a redirect led where the request cannot follow (only https, or http to a loopback host"
                        + (request.redirects == .withinOrigin ? ", on the same origin" : "") + ")")
            }
            if !URLRules.sameOrigin(current.url, target) {
                // The token and its proof stay with the origin they were made for.
                current.headers = current.headers.filter { !ASCII.equalIgnoringCase($0.key, "Authorization") && !ASCII.equalIgnoringCase($0.key, "DPoP") }
            }
            current.url = target
        }
        throw HTTPTransportError(.connectionLost, detail: "the server redirected more than \(Self.maximumRedirects) times")
    }

    /// The most redirects one request follows.
    static let maximumRedirects = 10

    private func sendOnce(_ request: HTTPRequest) async throws -> HTTPResponse {
        try Task.checkCancellation(orThrow: HTTPTransportError(.cancelled, detail: "the request was cancelled"))
        let driver = try CurlDriver.shared()
        let cancellation = CancellationLink<CurlTransfer>()
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
