import Foundation
import SessionCore
import SessionTesting
import XCTest

/// Two accounts signed in at django-oauth-toolkit and kept apart by AccountSessions: each opens
/// its own session, and removing one revokes it and keeps the other.
final class AccountsInteropTests: XCTestCase {
    func testTwoAccountsSignInAndTheAppSwitchesBetweenThem() async throws {
        let environment = try InteropEnvironment.load()
        guard let second = ProcessInfo.processInfo.environment["INTEROP_SECOND_USERNAME"], !second.isEmpty else {
            return XCTFail("INTEROP_SECOND_USERNAME is not set: run the interop tests through Tests/Interop/run-interop.sh")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("interop-accounts-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = try environment.configuration()
        let accounts = AccountSessions(provider: OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 10)),
                                       store: try FileAccountStore(configuration: configuration, directory: directory))
        func user(_ name: String) -> HeadlessUserAgent {
            HeadlessUserAgent(pageHandler: DjangoUser.pages(username: name, password: environment.password, approves: true))
        }
        let (alice, _) = try await accounts.signIn(agent: user(environment.username))
        let (bob, _) = try await accounts.signIn(agent: user(second))
        XCTAssertEqual(alice.subject, environment.subject)
        XCTAssertNotEqual(bob.subject, alice.subject)
        let listed = try await accounts.accounts()
        XCTAssertEqual(Set(listed.map(\.subject)), [alice.subject, bob.subject])

        // Switching: each account's session answers for its own user.
        for account in [alice, bob, alice] {
            let info = try await accounts.session(for: account).userInfo()
            XCTAssertEqual(info.sub, account.subject)
        }
        try await accounts.remove(bob)
        let left = try await accounts.accounts()
        XCTAssertEqual(left.map(\.subject), [alice.subject])
        let stillAlice = try await accounts.session(for: alice).userInfo()
        XCTAssertEqual(stillAlice.sub, alice.subject)
    }
}
