// GrabID's and Google Sign-In 4.x's public types from Swift 6 language mode: errors and login
// sessions handed to another queue, a UI delegate, subclasses of the open partner and sign-in
// classes, without a concurrency annotation or a warning (CI builds with -warnings-as-errors).
import Dispatch
import Foundation
import GoogleSignInCompat
import GrabIdCompat
import XCTest

final class Swift6GrabIdPartnerDouble: GrabIdPartner {}

final class Swift6UIDelegate: NSObject, GIDSignInUIDelegate, Sendable {
    func sign(inWillDispatch signIn: GIDSignIn!, error: Error!) {}
}

final class LegacyFromSwift6Tests: XCTestCase {
    func testGrabIdValuesCrossQueuesAndGoogle4xDelegatesConform() throws {
        let partner = Swift6GrabIdPartnerDouble(callbackQueue: .main)
        let (session, error) = partner.createLoginSession(clientId: "c", redirectUrl: "app:/cb", scope: "openid", serviceDiscoveryUrl: nil)
        XCTAssertNil(session)
        let checked = expectation(description: "handed to another queue")
        DispatchQueue.global().async {
            XCTAssertEqual(error?.code, .somethingWentWrong)
            checked.fulfill()
        }
        wait(for: [checked], timeout: 5)

        let login = LoginSession(clientId: "c", redirectUrl: try XCTUnwrap(URL(string: "app:/cb")), scope: "openid",
                                 serviceDiscoveryUrl: "https://example.com")
        let read: @Sendable () -> String? = { login.state }
        XCTAssertNil(read())

        let signIn = GIDSignIn(callbackQueue: .main)
        let delegate = Swift6UIDelegate()
        signIn.uiDelegate = delegate
        XCTAssertTrue(signIn.uiDelegate === delegate)
        XCTAssertFalse(signIn.hasAuthInKeychain())
    }
}
