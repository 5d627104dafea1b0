import Foundation
import GoogleSignInCompat
import SessionCore
import SessionTesting
import XCTest

/// A LocalProvider over loopback and a temporary directory for the session file, both removed
/// when the test ends, and GIDSignIn instances pointed at them.
///
/// Shared state: every test gets fresh `GIDSignIn` instances from here (`GIDSignIn.sharedInstance()`
/// is only compared by identity, never driven), and reads results only after the callback it
/// checks has been recorded.
class GoogleSignInTestCase: XCTestCase {
    private(set) var provider: LocalProvider!
    private(set) var directory: URL!

    /// The provider a test runs against (a subclass may set it up otherwise).
    func makeProvider() throws -> LocalProvider {
        try LocalProvider(clock: SystemClock())
    }

    override func setUpWithError() throws {
        provider = try makeProvider()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("gid-\(UUID().uuidString)")
    }

    override func tearDown() {
        provider.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// A GIDSignIn on the provider, redirecting to the demo client's redirect URI.
    func makeSignIn(agent: AuthorizationAgent? = HeadlessUserAgent()) -> GIDSignIn {
        let signIn = GIDSignIn(transport: CurlTransport(timeout: 5))
        signIn.issuer = provider.issuer
        signIn.redirectURI = URL(string: "com.example.sessiondemo:/callback")
        signIn.storeDirectory = directory
        signIn.authorizationAgent = agent
        return signIn
    }
}
