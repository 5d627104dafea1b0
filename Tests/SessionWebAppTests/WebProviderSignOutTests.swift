import ClientTestSupport
import Foundation
import SessionCore
import SessionTesting
import SessionWebApp
import XCTest

/// RP-initiated logout from a server: the session ends here, the browser goes to the provider and
/// comes back with the `state` its cookie holds.
final class WebProviderSignOutTests: XCTestCase {
    private var provider: LocalProvider!
    private var layer: WebSessions!
    private let returnURI = URL(string: "https://app.example.test/signed-out")!
    private let signOutURL = URL(string: "https://app.example.test/signout")!

    override func setUp() async throws {
        provider = try LocalProvider(clock: SystemClock()) {
            $0.clients = [LocalProvider.Client(id: "web-app", redirectURIs: [WebBrowser.callback, URL(string: "https://app.example.test/signed-out")!])]
        }
        let configuration = try SessionConfiguration(issuer: provider.issuer, clientID: "web-app", redirectURI: WebBrowser.callback,
                                                     postLogoutRedirectURI: returnURI)
        layer = try WebSessions(provider: OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 5)),
                                store: InMemoryWebSessionStore(), pending: .sealed(try AuthorizationSealingKey.generate()),
                                options: WebSessionOptions(appOrigin: WebBrowser.origin))
    }

    override func tearDown() {
        provider.stop()
    }

    /// Follows the provider's answers to `url` until it sends the browser back to the application.
    private func followAtProvider(_ url: URL) async throws -> URL {
        let response = try await CurlTransport(timeout: 5).send(HTTPRequest(method: "GET", url: url, followsRedirects: false))
        XCTAssertEqual(response.status, 302, String(decoding: response.body, as: UTF8.self))
        return try XCTUnwrap(response.header("Location").flatMap(URL.init(string:)))
    }

    func testTheSessionEndsHereAndAtTheProviderAndTheReturnIsChecked() async throws {
        var browser = WebBrowser()
        try await browser.signIn(layer)
        let signOut = try await layer.signOutAtProvider(browser.request("POST", signOutURL, origin: "https://app.example.test"))
        browser.receive(signOut.response)
        let endSession = try XCTUnwrap(signOut.response.location)
        XCTAssertTrue(endSession.absoluteString.hasPrefix(provider.url(of: .endSession).absoluteString))
        XCTAssertTrue(endSession.query?.contains("id_token_hint=") == true)
        XCTAssertNil(browser.cookies["__Host-session"])
        let ended = try await layer.session(for: browser.request())
        XCTAssertNil(ended, "ended here before the browser leaves")
        let back = try await followAtProvider(endSession)
        XCTAssertTrue(back.absoluteString.hasPrefix(returnURI.absoluteString))
        // Another browser, or a forged state, is refused.
        await assertSessionError(.stateMismatch) { _ = try await self.layer.completeProviderSignOut(WebBrowser().request("GET", back)) }
        await assertSessionError(.stateMismatch) {
            _ = try await self.layer.completeProviderSignOut(browser.request("GET", URL(string: "\(self.returnURI.absoluteString)?state=forged")!))
        }
        let done = try await layer.completeProviderSignOut(browser.request("GET", back))
        XCTAssertEqual(done.status, 303)
        XCTAssertEqual(done.setCookies, ["__Host-signout=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0"])
    }

    func testACrossSiteSignOutIsRefusedBeforeTheBrowserIsSentAnywhere() async throws {
        var browser = WebBrowser()
        try await browser.signIn(layer)
        let refused = try await layer.signOutAtProvider(browser.request("POST", signOutURL, origin: "https://evil.example"))
        XCTAssertEqual(refused.response.status, 403)
        XCTAssertNil(refused.response.location)
        let still = try await layer.session(for: browser.request())
        XCTAssertNotNil(still)
    }
}
