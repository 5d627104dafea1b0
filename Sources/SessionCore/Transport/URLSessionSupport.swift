import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPTransportError {
    /// The transport error for a failure a `URLSession` task reported.
    init(failure: Error) {
        guard let urlError = failure as? URLError else {
            self.init(.connectionLost, detail: "transport failure")
            return
        }
        switch urlError.code {
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet, .badURL, .unsupportedURL:
            self.init(.cannotConnect, detail: "cannot connect (URLError \(urlError.code.rawValue))")
        case .timedOut:
            self.init(.timedOut, detail: "the request timed out")
        case .cancelled:
            self.init(.cancelled, detail: "the request was cancelled")
        default:
            self.init(.connectionLost, detail: "the connection failed (URLError \(urlError.code.rawValue))")
        }
    }
}

extension HTTPResponse {
    /// The response `URLSession` reported, with `body`; header names as the session gives them.
    init(_ response: HTTPURLResponse, body: Data) {
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        self.init(status: response.statusCode, headers: headers, body: body)
    }
}
