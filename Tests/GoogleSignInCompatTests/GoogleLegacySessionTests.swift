import Foundation
import GoogleSignInCompat
import LegacySessionReaders
import SessionCore
import SessionFacade
import SessionFacadeTesting
import SessionTesting
import XCTest

/// The session Google Sign-In left in GTMAppAuth's keychain item `auth` is carried over by the
/// first restore, instead of signing the user out. The item's archive is written by
/// SessionTesting's `AppAuthArchiver` as GTMAppAuth and AppAuth archive it.
final class GoogleLegacySessionTests: GoogleSignInTestCase {
    private func signedInTokens() async throws -> SessionTokens {
        let client = SessionClient(configuration: try provider.configuration(), transport: CurlTransport(timeout: 5))
        return try await client.signIn(scopes: ["openid", "profile", "email"], agent: HeadlessUserAgent())
    }

    func testTheSessionGoogleSignInLeftIsRestoredAndItsItemRemoved() async throws {
        let tokens = try await signedInTokens()
        var archiver = AppAuthArchiver(issuer: provider.issuer, clientID: "session-demo", refreshToken: tokens.refreshToken,
                                       idToken: tokens.idToken)
        archiver.accessToken = tokens.accessToken
        archiver.scope = tokens.scopes.joined(separator: " ")
        let shelf = SecItemSemanticsKeychain()
        shelf.plant(try archiver.fetcherAuthorizationArchive(userID: "erika", email: "erika@example.com"), service: "auth", account: "OAuth")

        let log = CallbackLog()
        let signIn = makeSignIn()
        signIn.legacySession = GIDLegacySession(keychain: shelf)
        let app = LegacyGoogleApp(signIn: signIn) { log.record("app", $0, $1) }
        app.configure(clientID: "session-demo")
        app.restore()
        _ = await log.waitForEvents(2)
        XCTAssertEqual(log.transcript, ["app.hasPreviousSignIn(true)", "app.didSignIn(erika Erika Mustermann <erika@example.com> idToken=true)"])
        XCTAssertNotEqual(signIn.currentUser.authentication.accessToken, tokens.accessToken, "refreshed once carried over")
        XCTAssertTrue(shelf.items.isEmpty, "Google Sign-In's item is gone once ours is saved")
        XCTAssertEqual(provider.refreshTokenReuses, 0)
        XCTAssertTrue(signIn.hasPreviousSignIn(), "ours now")
    }

    func testAnOptedOutOrUnreadableItemIsLeftAlone() async throws {
        let readable = try AppAuthArchiver(issuer: provider.issuer, clientID: "session-demo", refreshToken: "r")
            .fetcherAuthorizationArchive(userID: "erika", email: "erika@example.com")
        for (label, data, carriesOver) in [("opted out", readable, false), ("garbage", Data("garbage".utf8), true),
                                           ("an OIDAuthState without the wrapper", try AppAuthArchiver(issuer: provider.issuer, clientID: "session-demo", refreshToken: "r").authStateArchive(), true)] {
            let shelf = SecItemSemanticsKeychain()
            shelf.plant(data, service: "auth", account: "OAuth")
            let log = CallbackLog()
            let signIn = makeSignIn()
            signIn.legacySession = GIDLegacySession(keychain: shelf)
            signIn.carriesOverLegacySession = carriesOver
            let app = LegacyGoogleApp(signIn: signIn) { log.record("app", $0, $1) }
            app.configure(clientID: "session-demo")
            signIn.restorePreviousSignIn()
            _ = await log.waitForEvents(1)
            XCTAssertEqual(log.transcript, ["app.didSignIn(hasNoAuthInKeychain)"], label)
            XCTAssertEqual(shelf.items.count, 1, "\(label): left where it was")
        }
    }

    func testGoogleSignInsEndpointsNameGooglesIssuer() throws {
        for endpoint in ["https://oauth2.googleapis.com/token", "https://www.googleapis.com/oauth2/v4/token", "https://evil.example/token"] {
            var archiver = AppAuthArchiver(issuer: nil, clientID: "123.apps.googleusercontent.com", refreshToken: "r")
            archiver.discoveryIssuer = nil
            archiver.tokenEndpoint = URL(string: endpoint)!
            let shelf = SecItemSemanticsKeychain()
            shelf.plant(try archiver.fetcherAuthorizationArchive(userID: "1", email: "a@example.com"), service: "auth", account: "OAuth")
            let session = try XCTUnwrap(try GIDLegacySession(keychain: shelf).legacySession())
            XCTAssertEqual(session.issuer?.absoluteString, endpoint.contains("evil") ? nil : "https://accounts.google.com", endpoint)
            XCTAssertEqual(session.clientID, "123.apps.googleusercontent.com")
            XCTAssertEqual(session.refreshToken, "r")
        }
    }
}
