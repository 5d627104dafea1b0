import Foundation
import GoogleSignInCompat
import SessionCore
import SessionFacadeTesting
import SessionTesting
import XCTest

/// Google Sign-In 5's documented behaviour (LEGACY_APIS.md) on any provider: here LocalProvider
/// over loopback, with the session file in a temporary directory.
final class GoogleSignInSequenceTests: GoogleSignInTestCase {
    private func makeApp(_ log: CallbackLog, agent: AuthorizationAgent? = HeadlessUserAgent()) -> LegacyGoogleApp {
        let app = LegacyGoogleApp(signIn: makeSignIn(agent: agent)) { log.record("app", $0, $1) }
        app.configure(clientID: "session-demo")
        return app
    }

    func testRestoreWithNothingSavedReportsHasNoAuthInKeychain() async throws {
        let log = CallbackLog()
        let app = makeApp(log)
        app.restore()
        _ = await log.waitForEvents(1)
        XCTAssertEqual(log.transcript, ["app.didSignIn(hasNoAuthInKeychain)"])
    }

    func testSignInWithoutAClientIDIsAnErrorNotACrash() async throws {
        let log = CallbackLog()
        let app = makeApp(log)
        app.signIn.clientID = nil
        app.signInTapped()
        _ = await log.waitForEvents(1)
        XCTAssertEqual(log.transcript, ["app.didSignIn(error com.google.GIDSignIn -1)"])
    }

    func testSignInRestoreTokensSignOutAndDisconnect() async throws {
        let log = CallbackLog()
        let app = makeApp(log)
        app.signInTapped()
        _ = await log.waitForEvents(1)
        XCTAssertEqual(log.transcript.last, "app.didSignIn(erika Erika Mustermann <erika@example.com> idToken=true)")
        XCTAssertNotNil(app.signIn.currentUser)
        XCTAssertEqual(app.lastUser?.grantedScopes as? [String], ["email", "openid", "profile"])

        app.fetchTokens()
        app.refreshTokens()
        _ = await log.waitForEvents(3)
        XCTAssertEqual(Array(log.transcript.suffix(2)), ["app.getTokens(ok)", "app.refreshTokens(ok)"])
        XCTAssertEqual(provider.requests(to: .token).last?.parameters["grant_type"], "refresh_token")

        // A later launch: a new instance finds the stored sign-in and restores it.
        let later = makeApp(log)
        later.restore()
        _ = await log.waitForEvents(5)
        XCTAssertEqual(Array(log.transcript.suffix(2)), ["app.hasPreviousSignIn(true)", "app.didSignIn(erika Erika Mustermann <erika@example.com> idToken=true)"])

        later.signOutTapped()
        XCTAssertNil(later.signIn.currentUser)
        app.disconnectTapped()
        _ = await log.waitForEvents(6)
        XCTAssertEqual(log.transcript.last, "app.didDisconnect(erika error=nil)", "signOut calls no delegate method")
        XCTAssertEqual(provider.requests(to: .revocation).count, 1)
        XCTAssertFalse(app.signIn.hasPreviousSignIn())
    }

    /// Closing the page and declining consent (`error=access_denied`) are both a cancel, as
    /// GIDSignIn.m 6.0.0 (lines 483–486) reports a declined consent.
    func testCancellingOrDecliningIsCanceled() async throws {
        for decision in [LocalProvider.ConsentDecision.cancel, .deny] {
            let log = CallbackLog()
            let app = makeApp(log)
            provider.scriptConsent(decision)
            app.signInTapped()
            _ = await log.waitForEvents(1)
            XCTAssertEqual(log.transcript, ["app.didSignIn(canceled)"], "\(decision)")
        }
    }


    func testHandleCompletesASignInOnTheExternalPath() async throws {
        let log = CallbackLog()
        let app = makeApp(log, agent: nil)
        let (urls, sink) = AsyncStream.makeStream(of: URL.self)
        app.signIn.authorizationURLHandler = { sink.yield($0) }
        XCTAssertFalse(app.open(URL(string: "com.example.sessiondemo:/callback?code=x")!), "nothing is pending yet")
        app.signInTapped()
        var iterator = urls.makeAsyncIterator()
        let next = await iterator.next()
        let url = try XCTUnwrap(next)
        let redirect = try await HeadlessUserAgent().authorize(url: url, redirectURI: URL(string: "com.example.sessiondemo:/callback")!)
        XCTAssertFalse(app.open(URL(string: "com.example.other:/x")!))
        XCTAssertTrue(app.open(redirect))
        _ = await log.waitForEvents(1)
        XCTAssertEqual(log.transcript, ["app.didSignIn(erika Erika Mustermann <erika@example.com> idToken=true)"])
    }
}

/// Google Sign-In's error codes, and its button's style and colour scheme, keep their raw values.
final class GoogleSignInErrorCodeTests: XCTestCase {
    func testButtonEnums() {
        XCTAssertEqual(GIDSignInButtonStyle.allCases.map(\.rawValue), [0, 1, 2])
        XCTAssertEqual(GIDSignInButtonColorScheme.allCases.map(\.rawValue), [0, 1])
    }

    func testErrorCodes() {
        XCTAssertEqual(kGIDSignInErrorDomain, "com.google.GIDSignIn")
        XCTAssertEqual([GIDSignInErrorCode.unknown, .keychain, .hasNoAuthInKeychain, .canceled, .EMM].map { $0.rawValue }, [-1, -2, -4, -5, -6])
    }
}
