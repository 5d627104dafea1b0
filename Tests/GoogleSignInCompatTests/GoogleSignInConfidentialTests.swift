import Foundation
import GoogleSignInCompat
import SessionCore
import SessionFacadeTesting
import SessionTesting
import XCTest

/// GIDSignIn passes a confidential client's authentication through to the token endpoint.
final class GoogleSignInConfidentialTests: GoogleSignInTestCase {
    func testAConfidentialClientSignsInWithItsSecret() async throws {
        let confidential = try LocalProvider(options: {
            var options = LocalProvider.Options()
            options.clients = [LocalProvider.Client(id: "server-app", redirectURIs: [URL(string: "com.example.sessiondemo:/callback")!],
                                                    authentication: .clientSecretPost("server-secret"))]
            return options
        }())
        defer { confidential.stop() }
        let log = CallbackLog()
        let signIn = makeSignIn()
        signIn.issuer = confidential.issuer
        signIn.clientID = "server-app"
        signIn.clientAuthentication = .clientSecretPost("server-secret")
        let app = LegacyGoogle4AppDelegate(signIn: signIn) { log.record("app", $0, $1) }
        signIn.delegate = app
        signIn.signIn()
        _ = await log.waitForEvents(1)
        XCTAssertNotNil(signIn.currentUser)
        XCTAssertEqual(confidential.requests(to: .token).first?.parameters["client_secret"], "server-secret")
    }
}
