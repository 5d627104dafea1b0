import ClientTestSupport
import Foundation
import SessionCore
@testable import SessionPostgres
import SessionTesting
import XCTest

/// Through PgBouncer in transaction-pooling mode, where consecutive statements of one client may
/// run on different server connections and session-level locks do not hold: the schema is
/// prepared, sessions are read and written, and the lease still makes one refresh of a session
/// across nodes.
final class PoolerTests: XCTestCase {
    func testTheLeaseMakesOneRefreshAcrossNodesThroughATransactionPooler() async throws {
        let provider = try LocalProvider(clock: SystemClock())
        addTeardownBlock { provider.stop() }
        let configuration = try provider.configuration()
        let signedIn = SessionClient(provider: OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 10)),
                                     store: PostgresTokenStore(database: try PostgresHarness.throughPooler(), configuration: configuration))
        let tokens = try await signedIn.signIn(agent: HeadlessUserAgent())
        try await signedIn.setTokens(tokens.withExpiry(Date().addingTimeInterval(-60)))
        let before = provider.requests(to: .token).count

        // Three nodes, each its own connections to the pooler, each with four callers at once.
        let nodes = try (0..<3).map { _ in
            SessionClient(provider: OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 10)),
                          store: PostgresTokenStore(database: try PostgresHarness.throughPooler(), configuration: configuration))
        }
        for node in nodes { _ = try await node.loadStoredSession() }
        let seen = try await withThrowingTaskGroup(of: String.self) { group in
            for node in nodes {
                for _ in 0..<4 { group.addTask { try await node.validTokens().accessToken } }
            }
            var all: Set<String> = []
            for try await token in group { all.insert(token) }
            return all
        }
        XCTAssertEqual(provider.requests(to: .token).count - before, 1, "one refresh across the nodes")
        XCTAssertEqual(seen.count, 1, "every node went on with the rotated tokens")
        XCTAssertEqual(provider.refreshTokenReuses, 0)
        let leases = try await PostgresHarness.admin().rows("SELECT count(*) FROM session_service_leases WHERE issuer = $1",
                                                            [configuration.issuer.absoluteString])
        XCTAssertEqual(leases, [["0"]], "every lease was released")
    }

    func testPendingSignInsAndTheRefreshOrderWorkThroughATransactionPooler() async throws {
        let configuration = try PostgresHarness.configuration()
        let first = PostgresTokenStore(database: try PostgresHarness.throughPooler(), configuration: configuration)
        let second = PostgresTokenStore(database: try PostgresHarness.throughPooler(), configuration: configuration)
        try await PostgresHarness.assertOneHolderAtATime(first, second)

        let pending = PostgresPendingAuthorizations(database: try PostgresHarness.throughPooler(), configuration: configuration)
        let key = "pooled-\(UUID().uuidString)"
        try await pending.keep(Data("record".utf8), key: key, expiresAt: Date().addingTimeInterval(60))
        let taken = try await pending.take(key: key) { XCTAssertEqual($0, Data("record".utf8)) }
        XCTAssertEqual(taken, Data("record".utf8), "taken in one transaction through the pooler")
        let again = try await pending.take(key: key) { _ in }
        XCTAssertNil(again)
    }
}
