// The compat modules used from Swift 6 language mode, the way ported code that has moved to
// Swift 6 calls them: this file must compile without warnings (CI builds with
// -warnings-as-errors), and the calls must work.
import Foundation
import GoogleSignInCompat
import GrabIdCompat
import NetIdCompat
import SessionCore
import SessionFacade
import SessionFacadeTesting
import SessionTesting
import XCTest

final class Swift6NetIdListener: NetIdServiceDelegate, Sendable {
    let log: CallbackLog
    init(log: CallbackLog) { self.log = log }
    func didFinishInitializationWithError(_ error: NetIdError?) { log.record("netid", "didFinishInitializationWithError", error?.code.rawValue ?? "nil") }
    func didFinishAuthentication(_ accessToken: String) { log.record("netid", "didFinishAuthentication", "token") }
}

final class Swift6GoogleDelegate: NSObject, GIDSignInDelegate, Sendable {
    let log: CallbackLog
    init(log: CallbackLog) { self.log = log }
    func sign(_ signIn: GIDSignIn!, didSignInFor user: GIDGoogleUser!, withError error: Error!) {
        log.record("google", "didSignIn", user?.userID ?? "error")
    }
}

final class CompatFromSwift6Tests: XCTestCase {
    /// The legacy SDKs' default providers, written as constants (URL(constant:)).
    func testTheDefaultProvidersAreTheLegacySDKs() {
        XCTAssertEqual(NetIdConfig.netIdIssuer.absoluteString, "https://broker.netid.de")
        XCTAssertEqual(GIDSignIn(transport: PlatformDefaults.httpTransport()).issuer.absoluteString, "https://accounts.google.com")
    }

    func testEachCompatModuleWorksFromSwift6Code() async throws {
        let provider = try LocalProvider(clock: SystemClock())
        defer { provider.stop() }
        let log = CallbackLog()

        let netId = NetIdService(service: SessionService(store: { _ in InMemoryTokenStore() }))
        netId.authorizationAgent = HeadlessUserAgent()
        let listener = Swift6NetIdListener(log: log)
        netId.registerListener(listener)
        netId.initialize(NetIdConfig(clientId: "session-demo", redirectUri: "com.example.sessiondemo:/callback", claims: nil, promptWeb: nil,
                                     loginLayerConfig: nil, permissionLayerConfig: nil, issuer: provider.issuer,
                                     permissionCenter: try provider.permissionCenter))
        netId.authorize(authFlow: .Login)
        _ = await log.waitForEvents(2)

        let partner = GrabIdPartner(makeService: { SessionService(store: { _ in InMemoryTokenStore() }) })
        partner.authorizationAgent = HeadlessUserAgent()
        let (session, error) = partner.createLoginSession(clientId: "session-demo", redirectUrl: "com.example.sessiondemo:/callback",
                                                          scope: "openid", serviceDiscoveryUrl: provider.issuer.absoluteString)
        XCTAssertNil(error)
        let loginSession = try XCTUnwrap(session)
        partner.login(loginSession: loginSession, presentingViewController: NSObject()) { error in
            log.record("grabid", "login", error.map { "\($0.code)" } ?? "nil")
        }
        _ = await log.waitForEvents(3)

        let signIn = GIDSignIn(transport: CurlTransport(timeout: 5))
        let delegate = Swift6GoogleDelegate(log: log)
        signIn.delegate = delegate
        signIn.clientID = "session-demo"
        signIn.issuer = provider.issuer
        signIn.redirectURI = URL(string: "com.example.sessiondemo:/callback")
        signIn.storeDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("swift6-\(UUID().uuidString)")
        signIn.authorizationAgent = HeadlessUserAgent()
        let anchor = NSObject()
        signIn.presentingViewController = anchor
        signIn.signIn()
        _ = await log.waitForEvents(4)
        signIn.disconnect()
        withExtendedLifetime((listener, delegate, anchor)) {}

        XCTAssertEqual(log.transcript, [
            "netid.didFinishInitializationWithError(nil)", "netid.didFinishAuthentication(token)",
            "grabid.login(nil)", "google.didSignIn(erika)",
        ])
    }
}
