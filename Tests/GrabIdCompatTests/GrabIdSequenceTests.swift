import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GrabIdCompat
import SessionCore
import SessionFacade
import SessionFacadeTesting
import SessionTesting
import XCTest

/// GrabID 1.0.6's sequences against LocalProvider over loopback: every completion exactly once,
/// on the main queue. The reference is `GrabIdPartnerLogin.swift` (login, exchangeToken,
/// loginCompleted, logout, getIdTokenInfo).
final class GrabIdSequenceTests: XCTestCase {
    private func query(_ url: URL?) -> [String: String] {
        let items = url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems } ?? []
        return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    func testAVerbatimPortLogsInThenHandsTheRedirectToExchangeToken() async throws {
        let harness = try makeGrabIdHarness()
        var pages = harness.openedLoginPages(recorded: true)
        harness.app.signInWithLoginConfig()
        let page = await pages.next()
        _ = await harness.log.waitForEvents(3)
        // GrabID's login ends once the page is shown (GrabIdPartnerLogin.swift `webLogin`: present, then
        // completion); the session then holds the login's security values.
        XCTAssertEqual(harness.log.transcript, ["app.loadLoginSession(nil)", "browser.opened()", "app.login(nil)"])
        let session = try XCTUnwrap(harness.app.loginSession)
        let sent = query(page)
        XCTAssertEqual(session.state, sent["state"])
        XCTAssertEqual(session.nonce, sent["nonce"])
        XCTAssertEqual(try PKCE.challenge(for: try XCTUnwrap(session.codeVerifier)), sent["code_challenge"])
        XCTAssertNil(session.accessToken)

        let redirect = try await harness.redirect(after: page)
        harness.app.application(open: redirect)
        _ = await harness.log.waitForEvents(4)
        XCTAssertEqual(harness.log.transcript.last, "app.exchangeToken(nil closed=true)")
        XCTAssertEqual(session.code, query(redirect)["code"])
        XCTAssertNotNil(session.accessToken)
        XCTAssertNotNil(session.idToken)
        XCTAssertEqual(session.tokenType, "Bearer", "as the provider sent it")
        XCTAssertTrue(harness.app.hasValidAccessToken)
        harness.app.closeLogin()
        _ = await harness.log.waitForEvents(6)
        XCTAssertEqual(Array(harness.log.transcript.suffix(2)), ["app.loginCompleted(done)", "app.loginCompleted(closed=false)"],
                       "exchangeToken's completion already closed the page")
    }

    func testTwoLoginsInARowEachCompleteOnce() async throws {
        let harness = try makeGrabIdHarness()
        var pages = harness.openedLoginPages()
        let (made, _) = harness.partner.createLoginSession(clientId: "session-demo", redirectUrl: GrabIdHarness.redirectURI.absoluteString,
                                                           scope: "openid", serviceDiscoveryUrl: harness.discoveryURL)
        let session = try XCTUnwrap(made)
        harness.app.signIn(with: session)
        harness.app.signIn(with: session)
        let first = await pages.next()
        _ = await harness.log.waitForEvents(1)
        harness.app.application(open: try await harness.redirect(after: first))
        let second = await pages.next()
        _ = await harness.log.waitForEvents(3)
        harness.app.application(open: try await harness.redirect(after: second))
        _ = await harness.log.waitForEvents(4)
        // Which exchange finds the page open depends on when the second page is shown, as in GrabID.
        XCTAssertEqual(harness.log.transcript.map { $0.components(separatedBy: " closed=").first ?? $0 }, [
            "app.login(nil)", "app.exchangeToken(nil", "app.login(nil)", "app.exchangeToken(nil",
        ])
    }

    func testWithoutAnAgentOrAURLHandlerLoginFailsAtOnce() async throws {
        let harness = try makeGrabIdHarness(agent: nil)
        harness.app.signInWithLoginConfig()
        _ = await harness.log.waitForEvents(2)
        XCTAssertEqual(harness.log.transcript, ["app.loadLoginSession(nil)", "app.login(authorization/invalidConfiguration)"])
        XCTAssertTrue(harness.provider.requests(to: .authorization).isEmpty)
    }

    func testWithAnAgentLoginEndsWhenTheSignInHas() async throws {
        let harness = try makeGrabIdHarness()
        harness.app.signInWithLoginConfig()
        _ = await harness.log.waitForEvents(2)
        XCTAssertEqual(harness.log.transcript, ["app.loadLoginSession(nil)", "app.login(nil)"])
        let session = try XCTUnwrap(harness.app.loginSession)
        XCTAssertNotNil(session.accessToken)
        XCTAssertNotNil(session.state)
        harness.app.closeLogin()
        _ = await harness.log.waitForEvents(4)
        XCTAssertEqual(harness.log.transcript.last, "app.loginCompleted(closed=true)", "the agent's page counts as shown")
    }

    func testIdTokenInfoRepeatIdLoginAndLogout() async throws {
        let harness = try makeGrabIdHarness()
        harness.app.signInWithLoginConfig()
        _ = await harness.log.waitForEvents(2)
        harness.app.loadIdTokenInfo()
        _ = await harness.log.waitForEvents(3)
        let info = try XCTUnwrap(harness.app.idTokenInfo)
        XCTAssertEqual(info.audience, "session-demo")
        XCTAssertEqual(info.issuer, harness.provider.issuer.absoluteString)
        XCTAssertEqual(info.partnerUserId, "erika")
        XCTAssertEqual(info.nonce, harness.app.loginSession?.nonce)
        XCTAssertNotNil(info.tokenId)
        XCTAssertNil(info.service, "LocalProvider issues no Grab service claim")
        // A second login while the token is valid needs no page.
        harness.app.signIn(with: try XCTUnwrap(harness.app.loginSession))
        harness.app.logout()
        harness.app.logout()
        _ = await harness.log.waitForEvents(6)
        XCTAssertEqual(harness.log.transcript, [
            "app.loadLoginSession(nil)", "app.login(nil)", "app.getIdTokenInfo(nil user=erika valid=true)",
            "app.login(nil)", "app.logout(nil)", "app.logout(logout/logoutFailed)",
        ])
        XCTAssertEqual(harness.provider.requests(to: .authorization).count, 1)
        XCTAssertTrue(harness.provider.requests(to: .revocation).isEmpty, "GrabID's logout does not revoke")
        XCTAssertFalse(harness.app.hasValidAccessToken)
        XCTAssertNil(harness.app.loginSession?.accessToken)
    }

    func testTokenValidityIsJudgedByTheServicesClockAndLeeway() async throws {
        let clock = ManualClock()
        let harness = try makeGrabIdHarness(clock: clock)
        harness.app.signInWithLoginConfig()
        _ = await harness.log.waitForEvents(2)
        XCTAssertTrue(harness.app.hasValidAccessToken)
        clock.advance(by: 3600 - 30)
        XCTAssertFalse(harness.app.hasValidAccessToken, "30 s left is inside the 60 s refresh leeway")
        harness.app.loadIdTokenInfo()
        _ = await harness.log.waitForEvents(3)
        XCTAssertEqual(harness.log.transcript.last, "app.getIdTokenInfo(nil user=erika valid=true)")
        clock.advance(by: 31)
        harness.app.loadIdTokenInfo()
        _ = await harness.log.waitForEvents(4)
        XCTAssertEqual(harness.log.transcript.last, "app.getIdTokenInfo(getIdTokenInfo/invalidIdToken user=- valid=false)")
    }

    func testAStoredSessionLogsInWithoutAPageAndKeepsItsNonce() async throws {
        let store = InMemoryTokenStore()
        let first = try makeGrabIdHarness(store: store)
        first.app.signInWithLoginConfig()
        _ = await first.log.waitForEvents(2)
        let second = try makeGrabIdHarness(store: store)
        second.partner.configuration = first.settings
        second.app.signInWithLoginConfig()
        _ = await second.log.waitForEvents(2)
        second.app.loadIdTokenInfo()
        _ = await second.log.waitForEvents(3)
        XCTAssertEqual(second.log.transcript, [
            "app.loadLoginSession(nil)", "app.login(nil)", "app.getIdTokenInfo(nil user=erika valid=true)",
        ])
        XCTAssertEqual(first.provider.requests(to: .authorization).count, 1, "the second app restored the stored session")
        XCTAssertEqual(second.app.loginSession?.nonce, first.app.loginSession?.nonce)
    }

    func testGetIdTokenInfoWithoutAnIdTokenIsInvalidIdToken() async throws {
        let harness = try makeGrabIdHarness()
        let (session, _) = harness.partner.createLoginSession(clientId: "session-demo", redirectUrl: GrabIdHarness.redirectURI.absoluteString,
                                                              scope: "openid", serviceDiscoveryUrl: harness.discoveryURL)
        harness.app.signIn(with: try XCTUnwrap(session))
        _ = await harness.log.waitForEvents(1)
        harness.app.logout()
        _ = await harness.log.waitForEvents(2)
        harness.app.loadIdTokenInfo()
        _ = await harness.log.waitForEvents(3)
        XCTAssertEqual(harness.log.transcript, [
            "app.login(nil)", "app.logout(nil)", "app.getIdTokenInfo(getIdTokenInfo/invalidIdToken user=- valid=false)",
        ])
        XCTAssertEqual(harness.app.lastMessage, "Invalid idToken.", "GrabID's message")
    }

    func testARedirectThatIsNotTheLoginsFailsSecurityValidation() async throws {
        let harness = try makeGrabIdHarness()
        var pages = harness.openedLoginPages()
        harness.app.signInWithLoginConfig()
        let page = await pages.next()
        harness.app.application(open: URL(string: "com.example.other:/callback?code=x&state=y")!)
        _ = await harness.log.waitForEvents(3)
        harness.app.application(open: try await harness.redirect(after: page))
        _ = await harness.log.waitForEvents(4)
        XCTAssertEqual(harness.log.transcript, [
            "app.loadLoginSession(nil)", "app.login(nil)",
            "app.exchangeToken(exchangeToken/securityValidationFailed closed=true)",
            "app.exchangeToken(nil closed=false)",
        ])
    }

    func testARedirectWithAnErrorOrAnotherStateFailsSecurityValidation() async throws {
        for forge in [false, true] {
            let harness = try makeGrabIdHarness()
            if !forge { harness.provider.scriptConsent(.deny) }
            var pages = harness.openedLoginPages()
            harness.app.signInWithLoginConfig()
            var redirect = try await harness.redirect(after: await pages.next())
            if forge {
                var components = try XCTUnwrap(URLComponents(url: redirect, resolvingAgainstBaseURL: false))
                components.queryItems = components.queryItems?.map { $0.name == "state" ? URLQueryItem(name: "state", value: "forged") : $0 }
                redirect = try XCTUnwrap(components.url)
            }
            harness.app.application(open: redirect)
            _ = await harness.log.waitForEvents(3)
            XCTAssertEqual(harness.log.transcript, [
                "app.loadLoginSession(nil)", "app.login(nil)", "app.exchangeToken(exchangeToken/securityValidationFailed closed=true)",
            ], forge ? "forged state" : "access_denied")
            XCTAssertTrue(harness.provider.requests(to: .token).isEmpty, "no code was exchanged")
        }
    }

    func testAFailureBeforeThePageIsShownEndsTheLogin() async throws {
        for agent in [HeadlessUserAgent() as AuthorizationAgent?, nil] {
            let harness = try makeGrabIdHarness(agent: agent)
            if agent == nil { _ = harness.openedLoginPages() }
            var settings = harness.settings
            settings["ServiceDiscoveryUrl"] = "http://127.0.0.1:1"
            harness.partner.configuration = settings
            harness.app.signInWithLoginConfig()
            _ = await harness.log.waitForEvents(2)
            XCTAssertEqual(harness.log.transcript, ["app.loadLoginSession(nil)", "app.login(authorization/network)"])
        }
    }

    func testLoadLoginSessionReadsAConfigurationFile() async throws {
        let harness = try makeGrabIdHarness()
        harness.partner.configuration = nil
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("grabid-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: ["GrabIdPartnerSDK": harness.settings]).write(to: file)
        setenv("GRABID_PARTNER_SDK_CONFIG", file.path, 1)
        addTeardownBlock {
            unsetenv("GRABID_PARTNER_SDK_CONFIG")
            try? FileManager.default.removeItem(at: file)
        }
        harness.app.signInWithLoginConfig()
        _ = await harness.log.waitForEvents(2)
        XCTAssertEqual(harness.log.transcript, ["app.loadLoginSession(nil)", "app.login(nil)"])
    }
}

/// A URLSession that counts the tasks it makes, as GrabID's tests' mock sessions do.
final class CountingURLSession: URLSession, @unchecked Sendable {
    // @unchecked Sendable: `made` is read and written only while holding `lock`.
    private let lock = NSLock()
    private var made = 0
    private let inner = URLSession(configuration: .ephemeral)

    var tasksMade: Int { lock.withLock { made } }

    override func dataTask(with request: URLRequest, completionHandler: @escaping @Sendable (Data?, URLResponse?, Error?) -> Void) -> URLSessionDataTask {
        lock.withLock { made += 1 }
        return inner.dataTask(with: request, completionHandler: completionHandler)
    }
}

final class GrabIdURLSessionTests: XCTestCase {
    func testAPartnerMadeWithAURLSessionSendsThroughIt() async throws {
        let provider = try LocalProvider(clock: SystemClock())
        addTeardownBlock { provider.stop() }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("grabid-store-\(UUID().uuidString)")
        setenv("XDG_DATA_HOME", data.path, 1)
        addTeardownBlock {
            unsetenv("XDG_DATA_HOME")
            try? FileManager.default.removeItem(at: data)
        }
        let session = CountingURLSession(configuration: .ephemeral)
        let partner = GrabIdPartner(urlSession: session, bundle: .main)
        partner.authorizationAgent = HeadlessUserAgent()
        let log = CallbackLog()
        let app = LegacyGrabIdApp(grabIdPartner: partner) { log.record("app", $0, $1) }
        let (loginSession, _) = partner.createLoginSession(clientId: "session-demo", redirectUrl: GrabIdHarness.redirectURI.absoluteString,
                                                           scope: "openid", serviceDiscoveryUrl: provider.issuer.absoluteString)
        app.signIn(with: try XCTUnwrap(loginSession))
        _ = await log.waitForEvents(1)
        app.logout()
        _ = await log.waitForEvents(2)
        XCTAssertEqual(log.transcript, ["app.login(nil)", "app.logout(nil)"])
        XCTAssertGreaterThanOrEqual(session.tasksMade, 3, "discovery, code exchange and JWKS went through the app's session")
    }
}
