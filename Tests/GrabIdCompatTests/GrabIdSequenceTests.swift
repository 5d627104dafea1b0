import Foundation
import GrabIdCompat
import SessionCore
import SessionFacade
import SessionTesting
import XCTest

/// GrabID's documented behaviour (LEGACY_APIS.md) against LocalProvider over loopback: every
/// completion exactly once, on the main queue.
final class GrabIdSequenceTests: XCTestCase {
    private struct Setup {
        let provider: LocalProvider
        let partner: GrabIdPartner
        let app: LegacyGrabIdApp
        let log: CallbackLog
        let settings: [String: Any]
    }

    private func makeSetup(store: InMemoryTokenStore = InMemoryTokenStore(), agent: AuthorizationAgent? = HeadlessUserAgent()) throws -> Setup {
        let provider = try LocalProvider(clock: SystemClock())
        addTeardownBlock { provider.stop() }
        let partner = GrabIdPartner(makeService: { SessionService(store: { _ in store }, transport: URLSessionTransport(timeout: 5)) })
        partner.authorizationAgent = agent
        let log = CallbackLog()
        let app = LegacyGrabIdApp(grabIdPartner: partner) { log.record("app", $0, $1) }
        let settings: [String: Any] = [
            "ClientId": "session-demo", "RedirectUrl": "com.example.sessiondemo:/callback", "Scope": "openid profile",
            "ServiceDiscoveryUrl": provider.issuer.absoluteString + "/.well-known/openid-configuration",
        ]
        partner.configuration = settings
        return Setup(provider: provider, partner: partner, app: app, log: log, settings: settings)
    }

    func testLoadLoginSessionChecksClientIdThenRedirectUrlThenScope() async throws {
        let setup = try makeSetup()
        let cases: [([String], String)] = [
            (["ClientId", "RedirectUrl", "Scope"], "loadConfiguration/invalidClientId"),
            (["RedirectUrl", "Scope"], "loadConfiguration/invalidRedirectUrl"),
            (["Scope", "ServiceDiscoveryUrl"], "loadConfiguration/invalidScope"),
            (["ServiceDiscoveryUrl"], "loadConfiguration/invalidServiceDiscoveryUrl"),
        ]
        for (index, (missing, expected)) in cases.enumerated() {
            var settings = setup.settings
            missing.forEach { settings[$0] = nil }
            setup.partner.configuration = settings
            setup.app.signInWithLoginConfig()
            _ = await setup.log.waitForEvents(index + 1)
            XCTAssertEqual(setup.log.transcript.last, "app.loadLoginSession(\(expected))", "\(missing)")
        }
    }

    func testLoadLoginSessionReadsAConfigurationFile() async throws {
        let setup = try makeSetup()
        setup.partner.configuration = nil
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("grabid-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: ["GrabIdPartnerSDK": setup.settings]).write(to: file)
        setenv("GRABID_PARTNER_SDK_CONFIG", file.path, 1)
        addTeardownBlock {
            unsetenv("GRABID_PARTNER_SDK_CONFIG")
            try? FileManager.default.removeItem(at: file)
        }
        setup.app.signInWithLoginConfig()
        _ = await setup.log.waitForEvents(2)
        XCTAssertEqual(setup.log.transcript, ["app.loadLoginSession(nil)", "app.login(nil)"])
    }

    func testLoginTokensIdTokenInfoAndLogout() async throws {
        let setup = try makeSetup()
        setup.app.signInWithLoginConfig()
        _ = await setup.log.waitForEvents(2)
        XCTAssertTrue(setup.app.hasValidAccessToken)
        XCTAssertNotNil(setup.app.loginSession?.idToken)
        XCTAssertEqual(setup.app.loginSession?.tokenType, "Bearer")
        setup.app.loadIdTokenInfo()
        setup.app.closeLogin()
        _ = await setup.log.waitForEvents(4)
        // A second login while the token is valid needs no authorization.
        setup.app.signIn(with: try XCTUnwrap(setup.app.loginSession))
        _ = await setup.log.waitForEvents(5)
        setup.app.logout()
        _ = await setup.log.waitForEvents(6)
        setup.app.logout()
        _ = await setup.log.waitForEvents(7)
        XCTAssertEqual(setup.log.transcript, [
            "app.loadLoginSession(nil)", "app.login(nil)",
            "app.getIdTokenInfo(nil user=erika valid=true)", "app.loginCompleted(closed)",
            "app.login(nil)",
            "app.logout(nil)", "app.logout(logout/logoutFailed)",
        ])
        XCTAssertEqual(setup.provider.requests(to: .authorization).count, 1)
        XCTAssertTrue(setup.provider.requests(to: .revocation).isEmpty, "GrabID's logout does not revoke")
        XCTAssertFalse(setup.app.hasValidAccessToken)
    }

    func testExchangeTokenCompletesAnExternalLogin() async throws {
        let setup = try makeSetup(agent: nil)
        let (urls, sink) = AsyncStream.makeStream(of: URL.self)
        setup.partner.authorizationURLHandler = { sink.yield($0) }
        let (session, error) = setup.partner.createLoginSession(clientId: "session-demo", redirectUrl: "com.example.sessiondemo:/callback",
                                                                scope: "openid", serviceDiscoveryUrl: setup.settings["ServiceDiscoveryUrl"] as? String)
        XCTAssertNil(error)
        setup.app.signIn(with: try XCTUnwrap(session))
        var iterator = urls.makeAsyncIterator()
        let next = await iterator.next()
        let url = try XCTUnwrap(next)
        let redirect = try await HeadlessUserAgent().authorize(url: url, redirectURI: URL(string: "com.example.sessiondemo:/callback")!)
        setup.app.application(open: URL(string: "com.example.other:/callback?code=x&state=y")!)
        setup.app.application(open: redirect)
        _ = await setup.log.waitForEvents(3)
        XCTAssertEqual(setup.log.transcript, [
            "app.exchangeToken(exchangeToken/securityValidationFailed)",
            "app.exchangeToken(nil)", "app.login(nil)",
        ])
        XCTAssertTrue(setup.app.hasValidAccessToken)
    }

    func testARedirectWithAnErrorFailsSecurityValidation() async throws {
        let setup = try makeSetup(agent: nil)
        setup.provider.scriptConsent(.deny)
        let (urls, sink) = AsyncStream.makeStream(of: URL.self)
        setup.partner.authorizationURLHandler = { sink.yield($0) }
        setup.partner.configuration = setup.settings
        setup.app.signInWithLoginConfig()
        var iterator = urls.makeAsyncIterator()
        let next = await iterator.next()
        let url = try XCTUnwrap(next)
        let redirect = try await HeadlessUserAgent().authorize(url: url, redirectURI: URL(string: "com.example.sessiondemo:/callback")!)
        setup.app.application(open: redirect)
        _ = await setup.log.waitForEvents(3)
        XCTAssertEqual(setup.log.transcript, [
            "app.loadLoginSession(nil)",
            "app.exchangeToken(exchangeToken/securityValidationFailed)", "app.login(authorization/authorizationFailed)",
        ])
    }

    func testARedirectWithAnotherStateFailsSecurityValidation() async throws {
        let setup = try makeSetup(agent: nil)
        let (urls, sink) = AsyncStream.makeStream(of: URL.self)
        setup.partner.authorizationURLHandler = { sink.yield($0) }
        setup.app.signInWithLoginConfig()
        var iterator = urls.makeAsyncIterator()
        let next = await iterator.next()
        let url = try XCTUnwrap(next)
        let redirect = try await HeadlessUserAgent().authorize(url: url, redirectURI: URL(string: "com.example.sessiondemo:/callback")!)
        var components = try XCTUnwrap(URLComponents(url: redirect, resolvingAgainstBaseURL: false))
        components.queryItems = components.queryItems?.map { $0.name == "state" ? URLQueryItem(name: "state", value: "forged") : $0 }
        setup.app.application(open: try XCTUnwrap(components.url))
        _ = await setup.log.waitForEvents(3)
        XCTAssertEqual(setup.log.transcript, [
            "app.loadLoginSession(nil)",
            "app.exchangeToken(exchangeToken/securityValidationFailed)", "app.login(authorization/securityValidationFailed)",
        ])
        XCTAssertTrue(setup.provider.requests(to: .token).isEmpty, "the code was never exchanged")
    }

    func testAnUnreachableProviderIsANetworkError() async throws {
        let setup = try makeSetup()
        var settings = setup.settings
        settings["ServiceDiscoveryUrl"] = "http://127.0.0.1:1"
        setup.partner.configuration = settings
        setup.app.signInWithLoginConfig()
        _ = await setup.log.waitForEvents(2)
        XCTAssertEqual(setup.log.transcript, ["app.loadLoginSession(nil)", "app.login(authorization/network)"])
    }
}
