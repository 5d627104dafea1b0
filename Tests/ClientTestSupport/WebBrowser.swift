import Foundation
import SessionCore
import SessionTesting
import SessionWebApp

/// A browser as the layer sees it: the cookies it keeps from the answers it got, sent back with
/// each request, and the provider's pages walked through by a headless user.
package struct WebBrowser {
    package init() {}

    package static let origin = URL(string: "https://app.example.test")!
    package static let callback = URL(string: "https://app.example.test/callback")!

    package private(set) var cookies: [String: String] = [:]

    /// A request from this browser for `url`, with its cookies; a POST carries the app's `Origin`.
    package func request(_ method: String = "GET", _ url: URL = WebBrowser.origin, origin: String? = nil, fetchSite: String? = nil) -> WebRequest {
        let header = cookies.isEmpty ? nil : cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        return WebRequest(method: method, url: url, cookie: header, origin: origin, fetchSite: fetchSite)
    }

    /// Takes in the `Set-Cookie` lines of `response`.
    package mutating func receive(_ response: WebResponse) {
        for line in response.setCookies {
            let pair = line.split(separator: ";", maxSplits: 1)[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(pair[0]), value = String(pair[1])
            if line.contains("Max-Age=0") { cookies[name] = nil } else { cookies[name] = value }
        }
    }

    /// Begins a sign-in at `layer`, signs in at the provider as its next consent says, and returns
    /// the callback request this browser then makes.
    package mutating func signInAtProvider(_ layer: WebSessions) async throws -> WebRequest {
        let begun = try await layer.beginSignIn()
        receive(begun)
        let callback = try await HeadlessUserAgent().authorize(url: begun.location!, redirectURI: WebBrowser.callback)
        return request("GET", callback)
    }

    /// A whole sign-in at `layer`.
    @discardableResult
    package mutating func signIn(_ layer: WebSessions) async throws -> WebSignIn {
        let signIn = try await layer.completeSignIn(try await signInAtProvider(layer))
        receive(signIn.response)
        return signIn
    }
}
