import ClientTestSupport
import Foundation
import LoopbackHTTP
import SessionCore
import SessionTesting
import SessionWebApp
import XCTest

/// Back-channel logout: a valid logout token ends the sessions it names and no other; a token that
/// breaks any one rule is refused with a 400 and ends nothing.
final class WebBackChannelLogoutTests: XCTestCase {
    private var provider: LocalProvider!
    private var layer: WebSessions!
    private let logoutURL = URL(string: "https://app.example.test/backchannel-logout")!

    override func setUp() async throws {
        provider = try LocalProvider(clock: SystemClock()) {
            $0.clients = [LocalProvider.Client(id: "web-app", redirectURIs: [WebBrowser.callback])]
            $0.users = [.erika, .max]
        }
        layer = try WebSessions(provider: OpenIDProvider(configuration: try provider.configuration(), transport: CurlTransport(timeout: 5)),
                                store: InMemoryWebSessionStore(), pending: .sealed(try AuthorizationSealingKey.generate()),
                                options: WebSessionOptions(appOrigin: WebBrowser.origin))
    }

    override func tearDown() {
        provider.stop()
    }

    private func post(_ token: String) async -> WebBackChannelLogout {
        await layer.backChannelLogout(WebRequest(method: "POST", url: logoutURL), body: Data("logout_token=\(token)".utf8))
    }

    /// Two sessions of Erika's (two browsers, two provider sessions) and one of Max's.
    private func threeSessions() async throws -> (erikas: [WebSession], max: WebSession) {
        var laptop = WebBrowser(), phone = WebBrowser(), maxs = WebBrowser()
        let first = try await laptop.signIn(layer).session
        let second = try await phone.signIn(layer).session
        provider.scriptConsent(.approveAs(subject: "max"))
        let max = try await maxs.signIn(layer).session
        return ([first, second], max)
    }

    private func liveSessions() async throws -> Int {
        let erikas = try await layer.sessions(ofSubject: "erika").count
        let maxs = try await layer.sessions(ofSubject: "max").count
        return erikas + maxs
    }

    func testATokenNamingAProviderSessionEndsThatSessionOnly() async throws {
        let (erikas, _) = try await threeSessions()
        let sid = try XCTUnwrap(erikas[0].providerSessionID)
        XCTAssertNotEqual(sid, erikas[1].providerSessionID)
        let logout = await post(try provider.logoutToken(subject: "erika", sessionID: sid))
        XCTAssertEqual(logout.response.status, 200)
        XCTAssertNil(logout.refusal)
        XCTAssertEqual(logout.ended.map(\.id), [erikas[0].id])
        let left = try await liveSessions()
        XCTAssertEqual(left, 2)
    }

    func testATokenNamingOnlyTheUserEndsEveryOneOfTheirSessions() async throws {
        let (erikas, max) = try await threeSessions()
        let logout = await post(try provider.logoutToken(subject: "erika", sessionID: nil))
        XCTAssertEqual(Set(logout.ended.map(\.id)), Set(erikas.map(\.id)))
        let maxsLeft = try await layer.sessions(ofSubject: "max")
        XCTAssertEqual(maxsLeft.map(\.id), [max.id])
        XCTAssertEqual(provider.requests(to: .revocation).count, 0, "the provider ended the grants itself")
    }

    func testATokenIsTakenOnce() async throws {
        let (erikas, _) = try await threeSessions()
        let token = try provider.logoutToken(subject: "erika", sessionID: erikas[0].providerSessionID)
        let first = await post(token)
        XCTAssertEqual(first.response.status, 200)
        let replay = await post(token)
        XCTAssertEqual(replay.response.status, 400)
        XCTAssertEqual(replay.refusal?.code, .invalidLogoutToken)
    }

    /// An age bound no token can meet is the caller's mistake, said as one, whatever the token.
    func testAnUnusableMaximumAgeIsAConfigurationError() async throws {
        let token = try provider.logoutToken(subject: "erika", sessionID: nil)
        for age in [0, -5, TimeInterval.nan, .infinity, 1e300] {
            await assertSessionError(.invalidConfiguration, process: .endSession) {
                _ = try await self.layer.provider.validateLogoutToken(token, maxAge: age)
            }
        }
        let taken = try await layer.provider.validateLogoutToken(token, maxAge: 60)
        XCTAssertEqual(taken.subject, "erika")
    }

    func testATokenBreakingAnyOneRuleIsRefusedAndEndsNothing() async throws {
        let (erikas, _) = try await threeSessions()
        let sid = erikas[0].providerSessionID
        let now = Int(Date().timeIntervalSince1970)
        let stranger = try LocalProvider(clock: SystemClock()) { $0.clients = [LocalProvider.Client(id: "web-app", redirectURIs: [WebBrowser.callback])] }
        defer { stranger.stop() }
        func token(_ changes: [String: Any?] = [:], header: [String: Any] = [:]) throws -> String {
            try provider.logoutToken(subject: "erika", sessionID: sid, changes: changes, header: header)
        }
        let valid = try token()
        let parts = valid.split(separator: ".").map(String.init)
        let unsignedHeader = Data(#"{"alg":"none","typ":"logout+jwt"}"#.utf8).base64EncodedString()
            .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        let broken: [(String, String)] = [
            ("signed by another provider's key", try stranger.logoutToken(subject: "erika", sessionID: sid, changes: ["iss": provider.issuer.absoluteString])),
            ("unsigned", "\(unsignedHeader).\(parts[1])."),
            ("its signature changed", "\(parts[0]).\(parts[1]).\(String(parts[2].reversed()))"),
            ("typ JWT", try token(header: ["typ": "JWT"])),
            ("another issuer", try token(["iss": "https://elsewhere.example"])),
            ("another audience", try token(["aud": "another-client"])),
            ("no iat", try token(["iat": nil])),
            ("iat in the future", try token(["iat": now + 3600])),
            ("iat an hour old", try token(["iat": now - 3600, "exp": now + 60])),
            ("expired", try token(["exp": now - 3600])),
            ("no jti", try token(["jti": nil])),
            ("no events", try token(["events": nil])),
            ("events an array", try token(["events": [LocalProvider.backChannelLogoutEvent]])),
            ("another event", try token(["events": ["http://schemas.openid.net/event/other": [String: Any]()]])),
            ("the event not an object", try token(["events": [LocalProvider.backChannelLogoutEvent: "yes"]])),
            ("neither sub nor sid", try token(["sub": nil, "sid": nil])),
            ("a nonce", try token(["nonce": "n-0S6_WzA2Mj"])),
            ("sub not a string", try token(["sub": 42])),
            ("not a JWT", "not-a-jwt"),
        ]
        for (rule, raw) in broken {
            let logout = await post(raw)
            XCTAssertEqual(logout.response.status, 400, rule)
            XCTAssertEqual(logout.refusal?.code, .invalidLogoutToken, "\(rule): \(logout.refusal?.message ?? "")")
            XCTAssertTrue(logout.ended.isEmpty, rule)
            XCTAssertFalse(logout.refusal?.message.contains(raw) ?? false, "\(rule): the token is not repeated in the error")
        }
        let requests: [(String, Data)] = [("GET", Data("logout_token=\(valid)".utf8)), ("POST", Data()),
                                          ("POST", Data("logout_token=\(valid)&logout_token=\(valid)".utf8))]
        for (method, body) in requests {
            let logout = await layer.backChannelLogout(WebRequest(method: method, url: logoutURL), body: body)
            XCTAssertEqual(logout.response.status, 400)
        }
        let left = try await liveSessions()
        XCTAssertEqual(left, 3, "nothing was ended")
        let accepted = await post(valid)
        XCTAssertEqual(accepted.response.status, 200, "the same token unbroken is accepted: \(accepted.refusal?.message ?? "")")
    }

    func testTheProvidersLogoutReachesTheApplicationBeforeTheBrowserComesBack() async throws {
        // The application's back-channel logout route, on a loopback server the provider posts to.
        let route = Locked<WebSessions?>(nil)
        let server = try LoopbackHTTPServer { request in
            let done = DispatchSemaphore(value: 0)
            let status = Locked<Int>(500)
            Task {
                if let layer = route.value {
                    let logout = await layer.backChannelLogout(WebRequest(method: request.method, url: URL(string: "https://app.example.test/bcl")!),
                                                               body: request.body)
                    status.withLock { $0 = logout.response.status }
                }
                done.signal()
            }
            _ = done.wait(timeout: .now() + 30)
            return .respond(HTTPServerResponse(status: status.value, headers: [("Cache-Control", "no-store")]))
        }
        defer { server.stop() }
        provider.stop()
        let signedOut = URL(string: "https://app.example.test/")!
        provider = try LocalProvider(clock: SystemClock()) {
            $0.clients = [LocalProvider.Client(id: "web-app", redirectURIs: [WebBrowser.callback, signedOut],
                                               backChannelLogoutURI: URL(string: "http://127.0.0.1:\(server.port)/bcl")!)]
        }
        layer = try WebSessions(provider: OpenIDProvider(configuration: try provider.configuration(), transport: CurlTransport(timeout: 5)),
                                store: InMemoryWebSessionStore(), pending: .sealed(try AuthorizationSealingKey.generate()),
                                options: WebSessionOptions(appOrigin: WebBrowser.origin))
        route.withLock { $0 = layer }
        var browser = WebBrowser()
        let signIn = try await browser.signIn(layer)
        let tokens = try await signIn.session.client.validTokens()
        let idToken = try XCTUnwrap(tokens.idToken)
        // The user signs out at the provider, from a page of its own: the application is not asked.
        var endSession = URLComponents(url: provider.url(of: .endSession), resolvingAgainstBaseURL: false)!
        endSession.queryItems = [URLQueryItem(name: "id_token_hint", value: idToken),
                                 URLQueryItem(name: "post_logout_redirect_uri", value: signedOut.absoluteString)]
        let answer = try await CurlTransport(timeout: 5).send(HTTPRequest(method: "GET", url: endSession.url!, followsRedirects: false))
        XCTAssertEqual(answer.status, 302)
        XCTAssertEqual(provider.backChannelLogouts.map(\.status), [200], "delivered and accepted before the browser was answered")
        let after = try await layer.session(for: browser.request())
        XCTAssertNil(after, "the session ended here")
    }
}
