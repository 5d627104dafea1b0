import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GoogleSignInCompat
import SessionCore
import SessionFacadeTesting
import SessionTesting
import XCTest

/// GoogleSignIn5SwiftApp, written as a 5.x Swift app writes it, run against LocalProvider: what
/// Google Sign-In does for it, by the importer's names.
final class GoogleSignIn5SwiftAppTests: GoogleSignInTestCase {
    /// Erika with a picture, whose ID tokens carry her profile, as Google's do.
    override func makeProvider() throws -> LocalProvider {
        var user = LocalProvider.User.erika
        user.picture = URL(string: "https://images.example.com/erika.png")
        return try LocalProvider(clock: SystemClock()) { $0.users = [user]; $0.idTokensCarryProfile = true }
    }

    private func makeApp(_ log: CallbackLog) -> GoogleSignIn5SwiftApp {
        let app = GoogleSignIn5SwiftApp(signIn: makeSignIn()) { log.record("app", $0, $1) }
        app.configure(clientID: "session-demo", scopes: [], presentingFrom: NSObject())
        return app
    }

    func testAProfileInTheIDTokenIsUsedAsGoogleUsesItSoARestoreWorksOffline() async throws {
        let log = CallbackLog()
        let app = makeApp(log)
        app.signInTapped()
        _ = await log.waitForEvents(1)
        XCTAssertEqual(log.transcript, ["app.didSignIn(erika Erika Mustermann <erika@example.com> image=true idToken=true)"])
        XCTAssertEqual(provider.requests(to: .userInfo).count, 0, "the profile came from the ID token")

        // A later launch whose network fails at UserInfo still restores the user, profile and all.
        provider.inject(.dropConnection, at: .userInfo, times: nil)
        let later = makeApp(log)
        later.launch()
        _ = await log.waitForEvents(3)
        XCTAssertEqual(Array(log.transcript.suffix(2)), ["app.hasPreviousSignIn(true)",
                                                         "app.didSignIn(erika Erika Mustermann <erika@example.com> image=true idToken=true)"])
        XCTAssertEqual(later.signIn.currentUser?.profile?.imageURL(withDimension: 120)?.absoluteString,
                       "https://images.example.com/erika.png?sz=120")
    }

    func testFreshTokensAndTheFetcherAuthorizerAuthorizeARequest() async throws {
        let log = CallbackLog()
        let app = makeApp(log)
        app.signInTapped()
        _ = await log.waitForEvents(1)
        app.useFreshTokens()
        _ = await log.waitForEvents(2)
        XCTAssertEqual(log.transcript.last, "app.freshTokens(ok)")

        let authorizer = try XCTUnwrap(app.authorizer())
        XCTAssertTrue(authorizer.canAuthorize)
        XCTAssertEqual(authorizer.userEmail, "erika@example.com")
        let request = NSMutableURLRequest(url: provider.url(of: .userInfo))
        let authorized = expectation(description: "authorized")
        authorizer.authorizeRequest(request) { error in
            XCTAssertNil(error)
            authorized.fulfill()
        }
        await fulfillment(of: [authorized], timeout: 10)
        XCTAssertEqual(request.value(forHTTPHeaderField: "Authorization"), "Bearer \(app.signIn.currentUser.authentication.accessToken!)")
        XCTAssertTrue(authorizer.isAuthorizedRequest(request as URLRequest))
    }

    func testTheFetcherAuthorizerRefusesToSendTheTokenInTheClear() async throws {
        let log = CallbackLog()
        let app = makeApp(log)
        app.signInTapped()
        _ = await log.waitForEvents(1)
        let authorizer = try XCTUnwrap(app.authorizer())
        let request = NSMutableURLRequest(url: URL(string: "http://api.example.com/v1/me")!)
        let refused = expectation(description: "refused")
        authorizer.authorizeRequest(request) { error in
            XCTAssertEqual((error as NSError?)?.domain, kGIDSignInErrorDomain)
            refused.fulfill()
        }
        await fulfillment(of: [refused], timeout: 10)
        XCTAssertNil(request.value(forHTTPHeaderField: "Authorization"))
    }

    /// The authorizer belongs to its user: after erika signs out it cannot authorize, and with max
    /// signed in it refuses rather than attach max's token (as `getTokensWithHandler` refuses).
    func testTheFetcherAuthorizerOfASignedOutUserNeverLendsTheNextUsersToken() async throws {
        var erika = LocalProvider.User.erika
        erika.picture = URL(string: "https://images.example.com/erika.png")
        let twoUsers = try LocalProvider(clock: SystemClock()) { $0.users = [erika, .max]; $0.idTokensCarryProfile = true }
        addTeardownBlock { twoUsers.stop() }
        let signIn = makeSignIn()
        signIn.issuer = twoUsers.issuer
        let log = CallbackLog()
        let app = GoogleSignIn5SwiftApp(signIn: signIn) { log.record("app", $0, $1) }
        app.configure(clientID: "session-demo", scopes: [], presentingFrom: NSObject())
        app.signInTapped()
        _ = await log.waitForEvents(1)
        let erikasAuthorizer = try XCTUnwrap(app.authorizer())
        XCTAssertTrue(erikasAuthorizer.canAuthorize)

        app.signOutTapped()
        XCTAssertFalse(erikasAuthorizer.canAuthorize, "its user is gone")
        twoUsers.scriptConsent(.approveAs(subject: "max"))
        app.signInTapped()
        _ = await log.waitForEvents(2)
        XCTAssertEqual(signIn.currentUser?.userID, "max")
        XCTAssertFalse(erikasAuthorizer.canAuthorize, "another user is signed in")
        XCTAssertTrue(try XCTUnwrap(app.authorizer()).canAuthorize, "max's own authorizer can")

        let request = NSMutableURLRequest(url: twoUsers.url(of: .userInfo))
        let refused = expectation(description: "refused")
        erikasAuthorizer.authorizeRequest(request) { error in
            XCTAssertEqual((error as NSError?)?.domain, kGIDSignInErrorDomain)
            refused.fulfill()
        }
        await fulfillment(of: [refused], timeout: 10)
        XCTAssertNil(request.value(forHTTPHeaderField: "Authorization"), "max's token was not attached")
    }

    func testTestDoublesSubclassTheSDKsClassesAsApps() throws {
        let double = RecordingSignIn()
        double.signIn()
        double.signOut()
        XCTAssertFalse(double.hasPreviousSignIn())
        _ = double.handle(URL(string: "com.example.sessiondemo:/callback?code=x")!)
        XCTAssertEqual(double.calls, ["signIn", "signOut", "hasPreviousSignIn", "handle"])
        let user = FakeUser(userID: "double")
        XCTAssertEqual(user.userID, "double")
        XCTAssertEqual(user.authentication.accessToken, fakeAccessToken)
        let gotTokens = expectation(description: "fresh tokens")
        user.authentication.do { authentication, error in
            XCTAssertNil(error)
            XCTAssertEqual(authentication.accessToken, fakeAccessToken)
            gotTokens.fulfill()
        }
        wait(for: [gotTokens], timeout: 1)
        XCTAssertEqual(GoogleSignIn5SwiftApp.errorCodes().map(\.rawValue), [-1, -2, -4, -5, -6])
        let configurations = GoogleSignIn5SwiftApp.configuration(clientID: "session-demo", server: "server-app")
        XCTAssertEqual(configurations.map(\.serverClientID), [nil, "server-app", "server-app"])
        let archived = try XCTUnwrap(try? NSKeyedArchiver.archivedData(withRootObject: configurations[1], requiringSecureCoding: true))
        let read = try XCTUnwrap(try? NSKeyedUnarchiver.unarchivedObject(ofClass: GIDConfiguration.self, from: archived))
        XCTAssertEqual(read.clientID, "session-demo")
        XCTAssertEqual(read.serverClientID, "server-app")
    }
}
