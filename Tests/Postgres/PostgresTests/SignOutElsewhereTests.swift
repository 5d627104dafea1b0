import ClientTestSupport
import Foundation
import SessionCore
@testable import SessionPostgres
import SessionTesting
import XCTest

/// A session ended on one node — by a local sign-out, which tells the provider nothing, or by
/// removing the account — ends on every node within the store's recheck interval, not when its
/// access token expires; a refresh made on another node is taken up the same way.
final class SignOutElsewhereTests: XCTestCase {
    private struct Nodes {
        let provider: LocalProvider
        let first: SessionClient
        let second: SessionClient
        /// The second node's clock.
        let clock: ManualClock
        let accounts: AccountSessions
    }

    /// erika signed in on the first node; the second node restored her session and used it.
    private func signedInOnTwoNodes() async throws -> Nodes {
        let provider = try LocalProvider(clock: SystemClock())
        addTeardownBlock { provider.stop() }
        let configuration = try provider.configuration()
        let store = PostgresAccountStore(database: try PostgresHarness.database(), configuration: configuration)
        let accounts = AccountSessions(provider: OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 5)), store: store)
        let (_, first) = try await accounts.signIn(agent: HeadlessUserAgent())
        let clock = ManualClock()
        let secondStore = PostgresAccountStore(database: try PostgresHarness.database { $0.sessionRecheckInterval = 5 }, configuration: configuration)
        let second = SessionClient(provider: OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 5), clock: clock),
                                   store: try secondStore.tokenStore(forSubject: "erika"))
        _ = try await second.loadStoredSession()
        _ = try await second.validTokens()
        return Nodes(provider: provider, first: first, second: second, clock: clock, accounts: accounts)
    }

    func testALocalSignOutOnOneNodeEndsTheSessionOnTheOthersWithinTheInterval() async throws {
        let nodes = try await signedInOnTwoNodes()
        try await nodes.first.signOut(revokeTokens: false)
        nodes.clock.advance(by: 4)
        let meanwhile = try await nodes.second.validTokens()
        XCTAssertNotNil(meanwhile.subject, "within the interval the session read before is used")
        nodes.clock.advance(by: 1)
        let ended = await sessionError { _ = try await nodes.second.validTokens() }
        XCTAssertEqual(ended?.code, .reauthenticationRequired)
        let sent = nodes.provider.requests(to: .userInfo).count
        let after = await sessionError { _ = try await nodes.second.userInfo() }
        XCTAssertEqual(after?.code, .notAuthenticated)
        XCTAssertEqual(nodes.provider.requests(to: .userInfo).count, sent, "nothing is sent with the ended session")
    }

    func testRemovingTheAccountOnOneNodeEndsItOnTheOthers() async throws {
        let nodes = try await signedInOnTwoNodes()
        let listed = try await nodes.accounts.accounts()
        let account = try XCTUnwrap(listed.first)
        try await nodes.accounts.remove(account, revokeTokens: false)
        nodes.clock.advance(by: 5)
        let ended = await sessionError { _ = try await nodes.second.validTokens() }
        XCTAssertEqual(ended?.code, .reauthenticationRequired)
    }

    func testARefreshOnOneNodeIsTakenUpByTheOthers() async throws {
        let nodes = try await signedInOnTwoNodes()
        let refreshed = try await nodes.first.refresh()
        nodes.clock.advance(by: 5)
        let seen = try await nodes.second.validTokens()
        XCTAssertEqual(seen.accessToken, refreshed.accessToken, "the rotated access token replaced the one the provider may have revoked")
        XCTAssertEqual(nodes.provider.requests(to: .token).filter { $0.parameters["grant_type"] == "refresh_token" }.count, 1)
    }
}
