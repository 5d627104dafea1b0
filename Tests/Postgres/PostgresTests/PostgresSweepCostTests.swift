import ClientTestSupport
import Foundation
import SessionCore
@testable import SessionPostgres
import SessionWebApp
import XCTest

/// What the sweep makes PostgreSQL read: each expired session a bounded number of times, whatever
/// join the planner would pick. Measured in rows (`EXPLAIN ANALYZE`), not in seconds.
final class PostgresSweepCostTests: XCTestCase {
    /// Rows every node of an `EXPLAIN (ANALYZE, FORMAT JSON)` plan produced or threw away, over all its loops.
    private static func rowsVisited(_ plan: [String: Any]) -> Double {
        let loops = plan["Actual Loops"] as? Double ?? 1
        let perLoop = ["Actual Rows", "Rows Removed by Filter", "Rows Removed by Join Filter", "Rows Removed by Index Recheck"]
            .reduce(0.0) { $0 + (plan[$1] as? Double ?? 0) }
        let children = (plan["Plans"] as? [[String: Any]] ?? []).reduce(0.0) { $0 + rowsVisited($1) }
        return perLoop * loops + children
    }

    private static func explained(_ connection: PostgresConnection, _ sql: String, _ parameters: [String?]) throws(PostgresFailure) -> Double {
        let text = try connection.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + sql, parameters).rows.first?.first ?? nil
        guard let data = text?.data(using: .utf8), let document = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]],
              let plan = document.first?["Plan"] as? [String: Any] else { return .infinity }
        return rowsVisited(plan)
    }

    func testTheSweepReadsEachExpiredSessionABoundedNumberOfTimesWhateverJoinThePlannerPicks() async throws {
        let configuration = try PostgresHarness.configuration()
        let store = PostgresWebSessionStore(database: try PostgresHarness.database(), configuration: configuration)
        let expired = 300
        let longAgo = Date().addingTimeInterval(-3600)
        for index in 0..<expired {
            let id = WebSessionID(digest: try PlatformCrypto.hexDigest(of: "sweep-\(index)", bytes: 32))
            try await store.insert(WebSessionRecord(id: id, subject: "erika", providerSessionID: nil, createdAt: longAgo, lastUsedAt: longAgo),
                                   tokens: PostgresHarness.tokens("access-\(index)"))
        }
        let (issuer, clientID) = (configuration.issuer.absoluteString, configuration.clientID)
        let now = "\(Date().timeIntervalSince1970)"
        let visited = try await PostgresHarness.admin().withConnection("explain the sweep") { connection throws(PostgresFailure) in
            _ = try connection.execute("BEGIN")
            defer { _ = try? connection.execute("ROLLBACK") }
            // Nested loops only: what the planner picks while the table's statistics predate a burst of sign-ins.
            _ = try connection.execute("SET LOCAL enable_hashjoin = off")
            _ = try connection.execute("SET LOCAL enable_mergejoin = off")
            let chosen = try connection.execute(PostgresWebSessionStore.expiredSessions, [issuer, clientID, now, now, "\(expired)"]).rows.compactMap { $0[0] }
            let choosing = try Self.explained(connection, PostgresWebSessionStore.expiredSessions, [issuer, clientID, now, now, "\(expired)"])
            let deleting = try Self.explained(connection, PostgresWebSessionStore.deleteSessions, [issuer, clientID, PostgresWebSessionStore.textArray(chosen)])
            return (chosen.count, choosing + deleting)
        }
        XCTAssertEqual(visited.0, expired, "every expired session is chosen")
        XCTAssertLessThanOrEqual(visited.1, Double(8 * expired), "rows read grow with the sessions swept, not with their square")
        let swept = try await store.removeExpired(idleBefore: Date(), createdBefore: Date(), limit: expired)
        XCTAssertEqual(swept.count, expired)
        XCTAssertEqual(swept.compactMap(\.tokens?.accessToken).count, expired, "each with the tokens it held")
    }

    func testAnArrayLiteralKeepsEveryValueOneElement() async throws {
        let values = ["plain", "with,comma", "with\"quote", "back\\slash", "{braces}", "", "NULL"]
        let rows = try await PostgresHarness.admin().rows("SELECT unnest($1::text[])", [PostgresWebSessionStore.textArray(values)])
        XCTAssertEqual(rows.map { $0[0] }, values)
    }
}
