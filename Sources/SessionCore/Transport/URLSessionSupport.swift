import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPTransportError {
    /// The transport error for a failure a `URLSession` task reported: the cause in words, with
    /// the `URLError` code for searching.
    init(failure: Error) {
        guard let urlError = failure as? URLError else {
            self.init(.connectionLost, detail: "transport failure")
            return
        }
        let code = " (URLError \(urlError.code.rawValue))"
        switch urlError.code {
        case .cannotConnectToHost:
            self.init(.cannotConnect, detail: "the connection was refused: nothing listens on that port, or a firewall said no" + code)
        case .cannotFindHost, .dnsLookupFailed:
            self.init(.cannotConnect, detail: "the host name could not be resolved" + code)
        case .notConnectedToInternet:
            self.init(.cannotConnect, detail: "this machine has no network connection" + code)
        case .badURL, .unsupportedURL:
            self.init(.cannotConnect, detail: "the URL cannot be requested" + code)
        case .timedOut:
            self.init(.timedOut, detail: "no complete answer came in time" + code)
        case .cancelled:
            self.init(.cancelled, detail: "the request was cancelled")
        case .networkConnectionLost:
            self.init(.connectionLost, detail: "the connection was closed before the answer was complete" + code)
        case .secureConnectionFailed:
            self.init(.connectionLost, detail: "the TLS handshake failed" + code)
        case .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid:
            self.init(.connectionLost, detail: "the server's TLS certificate is not trusted" + code)
        case .badServerResponse:
            self.init(.connectionLost, detail: "the server's answer is not valid HTTP" + code)
        default:
            self.init(.connectionLost, detail: "the connection failed" + code)
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
