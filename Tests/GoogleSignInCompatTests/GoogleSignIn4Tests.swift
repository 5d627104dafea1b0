import Foundation
import GoogleSignInCompat
import SessionCore
import SessionFacadeTesting
import SessionTesting
import XCTest

/// Google Sign-In 4.x's API (the seed's GIDSignIn.h and the 5.0 changelog's removals) beside 5.x,
/// and what `serverClientID` and `openIDRealm` send, against LocalProvider over loopback.
final class GoogleSignIn4Tests: GoogleSignInTestCase {
    func testA4xAppSignsInSilentlyThenInteractivelyWithItsUIDelegate() async throws {
        let log = CallbackLog()
        let signIn = makeSignIn()
        let app = LegacyGoogle4AppDelegate(signIn: signIn) { log.record("app", $0, $1) }
        let screen = LegacyGoogle4ViewController { log.record("screen", $0, $1) }
        app.applicationDidFinishLaunching(clientID: "session-demo")
        _ = await log.waitForEvents(1)
        screen.signInTapped(signIn)
        _ = await log.waitForEvents(3)
        XCTAssertEqual(log.transcript, [
            "app.didSignIn(hasNoAuthInKeychain)",
            "screen.signInWillDispatch(nil)",
            "app.didSignIn(erika scopes=email offline_access openid profile serverAuthCode=nil)",
        ])
        XCTAssertFalse(screen.spinning)
        XCTAssertEqual(provider.requests(to: .authorization).first?.parameters["hl"], "de")

        app.accessToken()
        app.refreshAccessToken()
        _ = await log.waitForEvents(5)
        XCTAssertEqual(Array(log.transcript.suffix(2)), ["app.getAccessToken(ok)", "app.refreshAccessToken(ok)"])

        // The next launch finds the stored sign-in.
        let later = LegacyGoogle4AppDelegate(signIn: makeSignIn()) { log.record("later", $0, $1) }
        later.applicationDidFinishLaunching(clientID: "session-demo")
        _ = await log.waitForEvents(7)
        XCTAssertEqual(Array(log.transcript.suffix(2)), [
            "later.hasAuthInKeychain(true)",
            "later.didSignIn(erika scopes=email offline_access openid profile serverAuthCode=nil)",
        ])
    }

    func testWithoutAnAgentOrAURLHandlerNoSignInHandlerIsInstalled() async throws {
        let log = CallbackLog()
        let signIn = makeSignIn(agent: nil)
        let app = LegacyGoogle4AppDelegate(signIn: signIn) { log.record("app", $0, $1) }
        let screen = LegacyGoogle4ViewController { log.record("screen", $0, $1) }
        signIn.clientID = "session-demo"
        signIn.delegate = app
        screen.signInTapped(signIn)
        _ = await log.waitForEvents(2)
        XCTAssertEqual(log.transcript, ["screen.signInWillDispatch(-3)", "app.didSignIn(noSignInHandlersInstalled)"])
        XCTAssertTrue(provider.requests(to: .authorization).isEmpty)
    }

    func testTheURLHandlerPathWith4xsHandleURL() async throws {
        let log = CallbackLog()
        let signIn = makeSignIn(agent: nil)
        let (urls, sink) = AsyncStream.makeStream(of: URL.self)
        signIn.authorizationURLHandler = { sink.yield($0) }
        let app = LegacyGoogle4AppDelegate(signIn: signIn) { log.record("app", $0, $1) }
        let screen = LegacyGoogle4ViewController { log.record("screen", $0, $1) }
        signIn.clientID = "session-demo"
        signIn.delegate = app
        screen.signInTapped(signIn)
        var iterator = urls.makeAsyncIterator()
        let page = await iterator.next()
        let redirect = try await HeadlessUserAgent().authorize(url: try XCTUnwrap(page), redirectURI: URL(string: "com.example.sessiondemo:/callback")!)
        XCTAssertTrue(app.application(open: redirect, sourceApplication: "com.apple.mobilesafari", annotation: [String: Any]()))
        _ = await log.waitForEvents(2)
        XCTAssertEqual(log.transcript.first, "screen.signInWillDispatch(nil)")
        XCTAssertTrue(log.transcript.last?.hasPrefix("app.didSignIn(erika") == true, "\(log.transcript)")
    }

    func testServerClientIDAndOpenIDRealmGoOverTheWireAsGooglesDo() async throws {
        let log = CallbackLog()
        let signIn = makeSignIn()
        signIn.serverClientID = "backend.apps.example.com"
        signIn.openIDRealm = "https://example.com/realm"
        let app = LegacyGoogle4AppDelegate(signIn: signIn) { log.record("app", $0, $1) }
        signIn.clientID = "session-demo"
        signIn.delegate = app
        signIn.signIn()
        _ = await log.waitForEvents(1)
        XCTAssertEqual(log.transcript, ["app.didSignIn(erika scopes=email openid profile serverAuthCode=set)"])
        XCTAssertEqual(provider.requests(to: .authorization).first?.parameters["audience"], "backend.apps.example.com")
        let exchange = try XCTUnwrap(provider.requests(to: .token).first)
        XCTAssertEqual(exchange.parameters["audience"], "backend.apps.example.com")
        XCTAssertEqual(exchange.parameters["openid.realm"], "https://example.com/realm")
        XCTAssertEqual(app.user?.serverAuthCode?.hasPrefix("sc-"), true, "the provider's server_code")

        app.refreshAccessToken()
        _ = await log.waitForEvents(2)
        XCTAssertEqual(provider.requests(to: .token).last?.parameters["grant_type"], "refresh_token")
        XCTAssertEqual(provider.requests(to: .token).last?.parameters["audience"], "backend.apps.example.com", "refreshes carry it too")
    }

    /// A GIDSignIn signed in through a 4.x-style app delegate (kept alive by the test), and its user.
    private func signedInUser() async throws -> (GIDSignIn, GIDGoogleUser, LegacyGoogle4AppDelegate) {
        let log = CallbackLog()
        let signIn = makeSignIn()
        let app = LegacyGoogle4AppDelegate(signIn: signIn) { log.record("app", $0, $1) }
        signIn.clientID = "session-demo"
        signIn.delegate = app
        signIn.signIn()
        _ = await log.waitForEvents(1)
        return (signIn, try XCTUnwrap(signIn.currentUser), app)
    }

    func testEveryUserPropertyAsAnAppReadsIt() async throws {
        let (signIn, user, app) = try await signedInUser()
        defer { withExtendedLifetime(app) {} }
        XCTAssertFalse(GIDSignIn.sharedInstance() === signIn)
        let profile: GIDProfileData = try XCTUnwrap(user.profile)
        XCTAssertEqual([profile.email, profile.name, profile.givenName, profile.familyName],
                       ["erika@example.com", "Erika Mustermann", "Erika", "Mustermann"])
        XCTAssertFalse(profile.hasImage)
        XCTAssertNil(profile.imageURL(withDimension: 96), "LocalProvider sends no picture")
        // NSSecureCoding and NSCopying, as GIDProfileData conforms since 4.x.
        let archive = try NSKeyedArchiver.archivedData(withRootObject: profile, requiringSecureCoding: true)
        let restored = try XCTUnwrap(try NSKeyedUnarchiver.unarchivedObject(ofClass: GIDProfileData.self, from: archive))
        XCTAssertEqual([restored.email, restored.name, restored.givenName, restored.familyName],
                       [profile.email, profile.name, profile.givenName, profile.familyName])
        XCTAssertTrue(profile.copy() as AnyObject === profile, "immutable: a copy is the profile itself")
        let authentication: GIDAuthentication = try XCTUnwrap(user.authentication)
        XCTAssertEqual(authentication.clientID, "session-demo")
        XCTAssertNotNil(authentication.accessToken)
        XCTAssertNotNil(authentication.refreshToken)
        XCTAssertNotNil(authentication.idToken)
        XCTAssertGreaterThan(try XCTUnwrap(authentication.accessTokenExpirationDate), Date())
        XCTAssertGreaterThan(try XCTUnwrap(authentication.idTokenExpirationDate), Date())
        XCTAssertEqual(user.accessibleScopes as? [String], user.grantedScopes as? [String])
        XCTAssertNil(user.hostedDomain)
        XCTAssertEqual(user.userID, "erika")
    }

    /// GIDGoogleUser and GIDAuthentication conform to NSSecureCoding (GIDGoogleUser.m and
    /// GIDAuthentication.m, 6.0.0): an app that caches the user archives and reads it back.
    func testAUserArchivesAndReadsBackWithItsAuthenticationAndProfile() async throws {
        let (_, user, app) = try await signedInUser()
        defer { withExtendedLifetime(app) {} }
        let archive = try NSKeyedArchiver.archivedData(withRootObject: user, requiringSecureCoding: true)
        let restored = try XCTUnwrap(try NSKeyedUnarchiver.unarchivedObject(ofClass: GIDGoogleUser.self, from: archive))
        XCTAssertEqual(restored.userID, "erika")
        XCTAssertEqual(restored.grantedScopes as? [String], user.grantedScopes as? [String])
        XCTAssertEqual(restored.profile?.email, "erika@example.com")
        XCTAssertNil(restored.hostedDomain)
        XCTAssertNil(restored.serverAuthCode)
        let authentication: GIDAuthentication = try XCTUnwrap(restored.authentication)
        XCTAssertEqual(authentication.clientID, "session-demo")
        XCTAssertEqual(authentication.accessToken, user.authentication.accessToken)
        XCTAssertEqual(authentication.refreshToken, user.authentication.refreshToken)
        XCTAssertEqual(authentication.idToken, user.authentication.idToken)
        XCTAssertEqual(authentication.accessTokenExpirationDate, user.authentication.accessTokenExpirationDate)
        // The archive names the classes and keys, never the token values in its description.
        XCTAssertFalse(String(describing: restored).contains(try XCTUnwrap(authentication.accessToken)))
    }

    private func describe(_ code: GIDSignInErrorCode) -> String {
        switch code {
        case .unknown: return "unknown"
        case .keychain: return "keychain"
        case .noSignInHandlersInstalled: return "no handlers"
        case .hasNoAuthInKeychain: return "signed out"
        case .canceled: return "canceled"
        case .EMM: return "emm"
        }
    }

    func testErrorCodesOf4xAnd5x() {
        XCTAssertEqual(kGIDSignInErrorDomain, "com.google.GIDSignIn")
        XCTAssertEqual(GIDSignInErrorCode(rawValue: -3).map(describe), "no handlers")
        XCTAssertEqual([GIDSignInErrorCode.unknown, .keychain, .noSignInHandlersInstalled, .hasNoAuthInKeychain, .canceled, .EMM].map { $0.rawValue },
                       [-1, -2, -3, -4, -5, -6])
    }
}
