import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An ``HTTPTransport`` over a `URLSession` the app owns, for legacy APIs that take one (GrabID's
/// `GrabIdPartner(urlSession:)`): requests go through that session's configuration, protocol
/// classes and delegate, test doubles included.
///
/// Unlike ``URLSessionTransport`` it cannot refuse redirects (the session's delegate decides), and
/// it checks the response size once the body has arrived. Prefer ``URLSessionTransport``.
public final class AppURLSessionTransport: HTTPTransport {
    /// The session requests go through.
    public let session: URLSession
    /// The largest response body accepted, in bytes.
    public let maximumResponseSize: Int

    /// Sends through `session`, refusing bodies over `maximumResponseSize` bytes (default 1 MiB).
    public init(session: URLSession, maximumResponseSize: Int = 1 << 20) {
        self.session = session
        self.maximumResponseSize = maximumResponseSize
    }

    /// Sends `request`; see ``HTTPTransport/send(_:)``.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let limit = maximumResponseSize
        let link = CancellationLink<URLSessionTask>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    if let error { return continuation.resume(throwing: HTTPTransportError(failure: error)) }
                    guard let response = response as? HTTPURLResponse else {
                        return continuation.resume(throwing: HTTPTransportError(.connectionLost, detail: "no HTTP response"))
                    }
                    let body = data ?? Data()
                    guard body.count <= limit else {
                        return continuation.resume(throwing: HTTPTransportError(.responseTooLarge, detail: "the response body exceeds \(limit) bytes"))
                    }
                    continuation.resume(returning: HTTPResponse(response, body: body))
                }
                if link.register(task) {
                    task.resume()
                } else {
                    continuation.resume(throwing: HTTPTransportError(.cancelled, detail: "the request was cancelled"))
                }
            }
        } onCancel: {
            link.cancel()?.cancel()
        }
    }
}
