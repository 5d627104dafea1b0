import Foundation

/// Sends the core's requests: logs them without secrets and turns transport failures into
/// ``SessionError``s for the process at hand.
struct ProviderExchange: Sendable {
    let transport: HTTPTransport
    let log: LogSink
    /// Bodies above this are refused whatever the transport allowed: no provider message the core
    /// reads is anywhere near 1 MiB, and a custom transport may not cap at all.
    static let maximumResponseSize = 1 << 20

    /// The raw outcome, for callers that must know whether a failed request may have reached the
    /// server (refresh).
    func attempt(_ request: HTTPRequest, purpose: String) async -> Result<HTTPResponse, HTTPTransportError> {
        log(.debug, "\(purpose): \(request.method) \(Redaction.url(request.url))")
        do {
            let response = try await transport.send(request)
            log(.debug, "\(purpose): HTTP \(response.status), \(response.body.count) bytes")
            guard response.body.count <= Self.maximumResponseSize else {
                return .failure(HTTPTransportError(.responseTooLarge, detail: "the response body exceeds \(Self.maximumResponseSize) bytes",
                                                   url: request.url))
            }
            return .success(response)
        } catch var error as HTTPTransportError {
            error.url = request.url
            log(.warning, "\(purpose): \(request.method) \(Redaction.url(request.url)): \(error.detail)")
            return .failure(error)
        } catch is CancellationError {
            return .failure(HTTPTransportError(.cancelled, detail: "cancelled", url: request.url))
        } catch {
            log(.warning, "\(purpose): transport failure of type \(type(of: error))")
            return .failure(HTTPTransportError(.connectionLost, detail: "transport failure", url: request.url))
        }
    }

    /// GETs the JSON document at `url` — a provider's, a resource's — following redirects within
    /// its origin only; a transport failure throws the matching ``SessionError``.
    func fetchDocument(_ url: URL, process: SessionError.Process, purpose: String) async throws -> HTTPResponse {
        var request = HTTPRequest(method: "GET", url: url, headers: ["Accept": "application/json"])
        request.redirects = .withinOrigin
        return try await send(request, process: process, purpose: purpose)
    }

    /// Sends `request`; a transport failure throws the matching ``SessionError``.
    func send(_ request: HTTPRequest, process: SessionError.Process, purpose: String) async throws -> HTTPResponse {
        switch await attempt(request, purpose: purpose) {
        case .success(let response): return response
        case .failure(let error): throw Self.sessionError(error, process: process, purpose: purpose)
        }
    }

    static func sessionError(_ error: HTTPTransportError, process: SessionError.Process, purpose: String) -> SessionError {
        let target = error.url.map { " " + Redaction.url($0) } ?? ""
        return switch error.kind {
        case .cannotConnect:
            SessionError(.cannotConnect, process: process, message: "\(purpose): cannot connect to\(target): \(error.detail)")
        case .connectionLost:
            SessionError(.networkError, process: process, message: "\(purpose): the exchange with\(target) failed: \(error.detail)")
        case .timedOut:
            SessionError(.timeout, process: process, message: "\(purpose): no answer from\(target) in time: \(error.detail)")
        case .responseTooLarge:
            SessionError(.responseTooLarge, process: process, message: "\(purpose): the answer from\(target) is too large: \(error.detail)")
        case .cancelled:
            SessionError.cancelled(process, "the \(purpose) request")
        }
    }

    /// The error for a response whose status is not the expected one: an OAuth error body or a
    /// Bearer challenge when there is one, `serverError` for 5xx, `unexpectedResponse` otherwise.
    static func statusError(_ response: HTTPResponse, process: SessionError.Process, purpose: String) -> SessionError {
        if let oauth = OAuthErrorResponse(json: response.body)
            ?? response.header("WWW-Authenticate").flatMap(OAuthErrorResponse.init(bearerChallenge:)) {
            return oauth.sessionError(process: process, httpStatus: response.status, context: purpose)
        }
        if response.status >= 500 {
            return SessionError(.serverError, process: process, message: "\(purpose): the provider failed", httpStatus: response.status)
        }
        return SessionError(.unexpectedResponse, process: process, message: "\(purpose): unexpected HTTP status", httpStatus: response.status)
    }
}
