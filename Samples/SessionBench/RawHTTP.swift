import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The baseline: plain `URLSession` requests the way an app would send them by hand, on an
/// ephemeral session that keeps connections alive. Redirects are not followed, so an
/// authorization request answers with the provider's redirect.
final class RawHTTP: Sendable {
    private let session: URLSession

    init() {
        session = URLSession(configuration: .ephemeral, delegate: RefusesRedirects(), delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Sends `request`; throws unless the response has status `expecting`.
    func send(_ request: URLRequest, expecting status: Int = 200) async throws -> (HTTPURLResponse, Data) {
        let (response, body) = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(URLResponse?, Data), Error>) in
            session.dataTask(with: request) { data, response, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: (response, data ?? Data())) }
            }.resume()
        }
        guard let http = response as? HTTPURLResponse, http.statusCode == status else {
            throw BenchFailure("raw \(request.httpMethod ?? "GET") \(request.url?.path ?? ""): unexpected response")
        }
        return (http, body)
    }

    /// A GET, with a bearer token when one is given.
    static func get(_ url: URL, bearer: String? = nil) -> URLRequest {
        var request = URLRequest(url: url)
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        return request
    }

    /// A form POST.
    static func post(_ url: URL, form: [(String, String)]) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        request.httpBody = Data(form.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&").utf8)
        return request
    }
}

private final class RefusesRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}

/// A benchmark step that did not do what it should: the run stops with exit code 3.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
