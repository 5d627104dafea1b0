import ClientTestSupport
import Foundation
import SessionCore
import SessionTesting
import SessionWebApp
import XCTest

/// A browser's sign-in through the web session layer, against LocalProvider over loopback.
final class WebSignInTests: XCTestCase {
    private var provider: LocalProvider!
    private var store: InMemoryWebSessionStore!
    private var layer: WebSessions!

    override func setUp() async throws {
        provider = try LocalProvider(clock: SystemClock()) {
            $0.clients = [LocalProvider.Client(id: "web-app", redirectURIs: [WebBrowser.callback])]
            $0.users = [.erika, .max]
        }
        store = InMemoryWebSessionStore()
        layer = try WebSessions(provider: OpenIDProvider(configuration: try provider.configuration(), transport: CurlTransport(timeout: 5)),
                                store: store, pending: .sealed(try AuthorizationSealingKey.generate()),
                                options: WebSessionOptions(appOrigin: WebBrowser.origin))
    }

    override func tearDown() {
        provider.stop()
    }

    func testASignedInBrowsersRequestsFindItsSessionAndItsUser() async throws {
        var browser = WebBrowser()
        let begun = try await layer.beginSignIn()
        XCTAssertEqual(begun.status, 303)
        XCTAssertTrue(begun.location?.absoluteString.hasPrefix(provider.issuer.absoluteString) == true)
        let signInCookie = try XCTUnwrap(begun.setCookies.first)
        XCTAssertTrue(signInCookie.hasPrefix("__Host-signin="))
        for attribute in ["Path=/", "Secure", "HttpOnly", "SameSite=Lax", "Max-Age=600"] {
            XCTAssertTrue(signInCookie.contains("; \(attribute)"), "the sign-in cookie has \(attribute)")
        }
        browser.receive(begun)
        let callback = try await HeadlessUserAgent().authorize(url: begun.location!, redirectURI: WebBrowser.callback)
        let signIn = try await layer.completeSignIn(browser.request("GET", callback))
        browser.receive(signIn.response)
        XCTAssertEqual(signIn.response.status, 303)
        XCTAssertEqual(signIn.response.location, URL(string: "https://app.example.test/"))
        XCTAssertNil(browser.cookies["__Host-signin"], "the spent sign-in cookie is deleted")
        let identifier = try XCTUnwrap(browser.cookies["__Host-session"])
        XCTAssertEqual(identifier.count, 43, "256 bits, base64url")
        XCTAssertTrue(signIn.response.setCookies[0].contains("; HttpOnly"))
        XCTAssertTrue(signIn.response.headers.contains { $0.name == "Cache-Control" && $0.value == "no-store" })

        let session = try await layer.session(for: browser.request())
        XCTAssertEqual(session?.subject, "erika")
        XCTAssertEqual(session?.id, signIn.session.id)
        let user = try await session?.userInfo()
        XCTAssertEqual(user?.sub, "erika")
        let record = try await store.record(signIn.session.id)
        XCTAssertNotNil(record)
        XCTAssertFalse(signIn.session.id.digest.contains(identifier), "the store keeps a digest, not the identifier")
        XCTAssertFalse("\(signIn.session.id)".contains(identifier))
    }

    func testACallbackBroughtByAnotherBrowserSignsNobodyIn() async throws {
        // Login CSRF: the attacker signs in as Max and hands the callback to the victim's browser.
        var attacker = WebBrowser()
        provider.scriptConsent(.approveAs(subject: "max"))
        let attackersCallback = try await attacker.signInAtProvider(layer)
        var victim = WebBrowser()
        await assertSessionError(.stateMismatch) { _ = try await self.layer.completeSignIn(victim.request("GET", attackersCallback.url)) }
        // Nor with a sign-in cookie of the victim's own.
        _ = try await victim.signInAtProvider(layer)
        await assertSessionError(.stateMismatch) { _ = try await self.layer.completeSignIn(victim.request("GET", attackersCallback.url)) }
        let victimsSession = try await layer.session(for: victim.request())
        XCTAssertNil(victimsSession)
        let maxsSessions = try await layer.sessions(ofSubject: "max")
        XCTAssertEqual(maxsSessions.count, 0, "no session was made for the attacker's sign-in")
        XCTAssertEqual(provider.requests(to: .token).count, 0, "no code was exchanged")
    }

    func testASignInMakesANewIdentifierWhateverCookieTheBrowserBrought() async throws {
        // Session fixation: a cookie planted before the sign-in is never the signed-in session's.
        var browser = WebBrowser()
        let planted = String(repeating: "A", count: 43)
        browser.receive(WebResponse(status: 200, setCookies: ["__Host-session=\(planted); Path=/"]))
        try await browser.signIn(layer)
        XCTAssertNotEqual(browser.cookies["__Host-session"], planted)
        var attacker = WebBrowser()
        attacker.receive(WebResponse(status: 200, setCookies: ["__Host-session=\(planted); Path=/"]))
        let attackersView = try await layer.session(for: attacker.request())
        XCTAssertNil(attackersView, "the planted identifier leads nowhere")
    }

    func testASecondSignInInTheSameBrowserReplacesItsSessionAndRevokesTheGrant() async throws {
        var browser = WebBrowser()
        let first = try await browser.signIn(layer)
        let firstTokens = try await first.session.client.validTokens()
        XCTAssertNil(first.replaced)
        let second = try await browser.signIn(layer)
        XCTAssertEqual(second.replaced?.id, first.session.id)
        guard case .success? = second.replaced?.revocation else { return XCTFail("the replaced grant is revoked: \(String(describing: second.replaced?.revocation))") }
        let replaced = try await store.record(first.session.id)
        XCTAssertNil(replaced, "the replaced session is gone")
        XCTAssertEqual(provider.requests(to: .revocation).count, 1)
        // Its refresh token no longer works at the provider: no orphaned grant.
        let orphan = SessionClient(provider: OpenIDProvider(configuration: try provider.configuration(), transport: CurlTransport(timeout: 5)),
                                   store: InMemoryTokenStore(firstTokens))
        _ = try await orphan.loadStoredSession()
        await assertSessionError(.reauthenticationRequired) { _ = try await orphan.refresh() }
        let current = try await layer.session(for: browser.request())
        XCTAssertEqual(current?.id, second.session.id)
    }

    func testACallbackToAnotherOriginIsRefusedAsADestination() async throws {
        var browser = WebBrowser()
        let callback = try await browser.signInAtProvider(layer)
        await assertSessionError(.invalidConfiguration) {
            _ = try await self.layer.completeSignIn(callback, then: URL(string: "https://evil.example/")!)
        }
    }

    func testTheLayerRefusesSettingsThatWouldBreakItsPromises() async throws {
        let openID = OpenIDProvider(configuration: try provider.configuration(), transport: CurlTransport(timeout: 5))
        XCTAssertThrowsError(try WebSessions(provider: openID, store: store, pending: .here, options: WebSessionOptions(appOrigin: WebBrowser.origin)))
        XCTAssertThrowsError(try WebSessions(provider: openID, store: store, pending: .store(InMemoryPendingAuthorizationStore()),
                                             options: WebSessionOptions(appOrigin: URL(string: "http://app.example.test")!)))
        var options = WebSessionOptions(appOrigin: WebBrowser.origin)
        options.sessionCookieName = "session; Domain=example.test"
        XCTAssertThrowsError(try WebSessions(provider: openID, store: store, pending: .store(InMemoryPendingAuthorizationStore()), options: options))
        options = WebSessionOptions(appOrigin: WebBrowser.origin)
        options.idleTimeout = 0
        XCTAssertThrowsError(try WebSessions(provider: openID, store: store, pending: .store(InMemoryPendingAuthorizationStore()), options: options))
        // A logout token's age bound that no token meets would leave every back-channel logout refused.
        for age in [0, -1, TimeInterval.nan, .infinity] {
            options = WebSessionOptions(appOrigin: WebBrowser.origin)
            options.logoutTokenMaxAge = age
            XCTAssertThrowsError(try WebSessions(provider: openID, store: store, pending: .store(InMemoryPendingAuthorizationStore()),
                                                 options: options), "logoutTokenMaxAge \(age)")
        }
    }

    /// Lifetimes as long as a number goes ("never") work: a cookie's `Max-Age` is then the 400 days
    /// browsers keep one at most (RFC 6265bis §5.6.2).
    func testLifetimesWithoutAnEndWorkAndTheirCookiesLastWhatBrowsersAllow() async throws {
        var options = WebSessionOptions(appOrigin: WebBrowser.origin)
        options.idleTimeout = .greatestFiniteMagnitude
        options.absoluteTimeout = .greatestFiniteMagnitude
        options.signInLifetime = .greatestFiniteMagnitude
        let layer = try WebSessions(provider: self.layer.provider, store: store, pending: .sealed(try AuthorizationSealingKey.generate()),
                                    options: options)
        var browser = WebBrowser()
        let begun = try await layer.beginSignIn()
        XCTAssertTrue(try XCTUnwrap(begun.setCookies.first).hasSuffix("; Max-Age=34560000"))
        browser.receive(begun)
        let signIn = try await layer.completeSignIn(try await browser.signInAtProvider(layer))
        XCTAssertTrue(signIn.response.setCookies[0].hasSuffix("; Max-Age=34560000"), signIn.response.setCookies[0])
        browser.receive(signIn.response)
        let found = try await layer.session(for: browser.request())
        XCTAssertEqual(found?.id, signIn.session.id)
    }

    func testACookieHeaderWithTwoSessionCookiesOrAMalformedOneFindsNoSession() async throws {
        var browser = WebBrowser()
        try await browser.signIn(layer)
        let identifier = try XCTUnwrap(browser.cookies["__Host-session"])
        for header in ["__Host-session=\(identifier); __Host-session=\(String(repeating: "B", count: 43))",
                       "__Host-session=\(identifier)x", "__Host-session=", "__Host-session=\(identifier.dropLast())!"] {
            let found = try await layer.session(for: WebRequest(url: WebBrowser.origin, cookie: header))
            XCTAssertNil(found, header)
        }
        let found = try await layer.session(for: WebRequest(url: WebBrowser.origin, cookie: "theme=dark;  __Host-session=\(identifier) ;x=1"))
        XCTAssertNotNil(found)
    }
}
