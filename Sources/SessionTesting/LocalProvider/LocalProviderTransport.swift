import Foundation
import LoopbackHTTP
import SessionCore

extension LocalProvider {
    /// A transport that hands requests for this provider straight to its handlers, without
    /// sockets: the same answers, faults and request log, for tests that need thousands of
    /// operations. A `delay` fault blocks the calling thread; a dropped connection throws
    /// `connectionLost`. Requests for other hosts fail with `cannotConnect`.
    public var inProcessTransport: HTTPTransport { InProcessTransport(engine: engine, issuer: issuer) }
}

private struct InProcessTransport: HTTPTransport {
    let engine: LocalProviderEngine
    let issuer: URL

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard request.url.host == issuer.host, request.url.port == issuer.port,
              let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false) else {
            throw HTTPTransportError(.cannotConnect, detail: "the in-process transport only reaches its LocalProvider")
        }
        let target = components.percentEncodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        let serverRequest = HTTPServerRequest(method: request.method, target: target,
                                              headers: request.headers.map { (name: $0.key, value: $0.value) },
                                              body: request.body ?? Data())
        switch engine.handle(serverRequest) {
        case .dropConnection:
            throw HTTPTransportError(.connectionLost, detail: "the provider closed the connection")
        case .respondThenClose(let response, let afterSending):
            defer { afterSending() }
            return Self.response(response)
        case .respond(let response):
            return Self.response(response)
        }
    }

    private static func response(_ response: HTTPServerResponse) -> HTTPResponse {
        var headers: [String: String] = [:]
        for header in response.headers { headers[header.name] = header.value }
        return HTTPResponse(status: response.status, headers: headers, body: response.body)
    }
}
