import ClientTestSupport
import DemoTestSupport
import Foundation
import SessionCore
@testable import SessionPostgres
import SessionTesting
import XCTest

/// Four node processes share 250 sessions through PostgreSQL. Every access token has expired, and
/// every node uses every session at once: each session is refreshed exactly once across the
/// fleet, nobody replays a spent refresh token, and every node goes on with the rotated tokens.
/// Without the lease, the same run refreshes sessions twice — which is what the test is there to catch.
final class FleetRefreshTests: XCTestCase {
    private static let nodes = 4
    private static let sessions = 250

    /// A LocalProvider with `count` users, each signed in once, their sessions stored in
    /// PostgreSQL with an access token that has expired.
    private func expiredSessions(_ count: Int) async throws -> LocalProvider {
        var options = LocalProvider.Options()
        options.users = (0..<count).map { index in
            LocalProvider.User(subject: String(format: "user-%03d", index), email: "user\(index)@example.com", givenName: "User", familyName: "\(index)")
        }
        let provider = try LocalProvider(options: options)
        addTeardownBlock { provider.stop() }
        let configuration = try provider.configuration()
        let database = try PostgresHarness.database()
        // A port an earlier run's provider had: its rows are not this run's.
        _ = try await PostgresHarness.admin().rows("DELETE FROM session_service_sessions WHERE issuer = $1", [configuration.issuer.absoluteString])
        let accounts = AccountSessions(provider: OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 10)),
                                       store: PostgresAccountStore(database: database, configuration: configuration))
        for index in 0..<count {
            provider.scriptConsent(.approveAs(subject: String(format: "user-%03d", index)))
            let (_, session) = try await accounts.signIn(agent: HeadlessUserAgent())
            let signedIn = await session.tokens
            let tokens = try XCTUnwrap(signedIn)
            try await session.setTokens(tokens.withExpiry(Date().addingTimeInterval(-60)))
        }
        return provider
    }

    /// Starts the nodes, lets them go at once, and returns what each printed.
    private func runFleet(_ provider: LocalProvider, sessions: Int, lease: Bool) async throws -> [String] {
        var nodes: [ChildProcess] = []
        for _ in 0..<Self.nodes {
            var node = try ChildProcess.start("session-bench", ["--fleet-node", PostgresHarness.connectionStringFile, provider.issuer.absoluteString, "\(sessions)"]
                                                  + (lease ? [] : ["no-lease"]))
            let ready = await node.lines.next()
            XCTAssertEqual(ready, "ready")
            nodes.append(node)
        }
        for node in nodes { node.send("go") }
        var outputs: [String] = []
        for index in nodes.indices {
            outputs.append(await nodes[index].lines.next() ?? "(no answer)")
            _ = await nodes[index].status()
        }
        return outputs
    }

    private func refreshRequests(_ provider: LocalProvider) -> Int {
        provider.requests(to: .token).filter { $0.parameters["grant_type"] == "refresh_token" }.count
    }

    func testFourNodesRefreshEachOf250SessionsExactlyOnce() async throws {
        _ = try PostgresHarness.connectionString()
        let provider = try await expiredSessions(Self.sessions)
        let before = refreshRequests(provider)
        let outputs = try await runFleet(provider, sessions: Self.sessions, lease: true)
        XCTAssertEqual(outputs, Array(repeating: "done ok \(Self.sessions)", count: Self.nodes), "every node used every session")
        XCTAssertEqual(refreshRequests(provider) - before, Self.sessions, "one refresh per session across the fleet")
        XCTAssertEqual(provider.refreshTokenReuses, 0, "no spent refresh token was sent again (no invalid_grant)")
        print("FleetRefreshTests: \(Self.nodes) nodes, \(Self.sessions) sessions, \(refreshRequests(provider) - before) refresh requests")
    }

    func testWithoutTheLeaseTheSameRunRefreshesSessionsTwice() async throws {
        _ = try PostgresHarness.connectionString()
        let provider = try await expiredSessions(Self.sessions)
        let before = refreshRequests(provider)
        let outputs = try await runFleet(provider, sessions: Self.sessions, lease: false)
        let refreshes = refreshRequests(provider) - before
        XCTAssertTrue(refreshes > Self.sessions || provider.refreshTokenReuses > 0,
                      "without the lease the nodes race: \(refreshes) refreshes, \(provider.refreshTokenReuses) reuses")
        print("FleetRefreshTests without the lease: \(refreshes) refresh requests for \(Self.sessions) sessions, "
              + "\(provider.refreshTokenReuses) spent refresh tokens sent again; nodes: \(outputs)")
    }

    /// A node killed with SIGKILL while the fleet refreshes, 50 rounds (200 with SESSION_SOAK=1):
    /// no spent refresh token is sent again, every row stays readable, and each session's lease
    /// is free again within the bound (the nodes run with a lease bound of 1 s: a dead node's
    /// lease runs out then).
    func testKillingANodeMidRefreshNeverReplaysNorCorruptsAndFreesTheLease() async throws {
        _ = try PostgresHarness.connectionString()
        let sessions = 8
        let provider = try await expiredSessions(sessions)
        let configuration = try provider.configuration()
        let database = try PostgresHarness.database { $0.leaseBound = 1 }
        let accounts = AccountSessions(provider: OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 10)),
                                       store: PostgresAccountStore(database: database, configuration: configuration))
        var verdicts: [String: Int] = [:]
        for round in 0..<SoakRounds.count(quick: 50, soak: 200) {
            if round > 0 {
                // Every session expired again (or signed in again, when the last round ended it).
                for index in 0..<sessions {
                    let subject = String(format: "user-%03d", index)
                    let store = try PostgresAccountStore(database: database, configuration: configuration).tokenStore(forSubject: subject)
                    let client = SessionClient(provider: accounts.provider, store: store)
                    if try await client.loadStoredSession() == nil {
                        provider.scriptConsent(.approveAs(subject: subject))
                        _ = try await accounts.signIn(agent: HeadlessUserAgent())
                        _ = try await client.loadStoredSession()
                    }
                    if let tokens = await client.tokens { try await client.setTokens(tokens.withExpiry(Date().addingTimeInterval(-60))) }
                }
            }
            var nodes: [ChildProcess] = []
            for _ in 0..<2 {
                var node = try ChildProcess.start("session-bench", ["--fleet-node", PostgresHarness.connectionStringFile, provider.issuer.absoluteString,
                                                                    "\(sessions)", "lease-bound=1"])
                let ready = await node.lines.next()
                XCTAssertEqual(ready, "ready")
                nodes.append(node)
            }
            let victim = nodes[round % 2].pid
            if round.isMultiple(of: 2) {
                provider.afterAnswering(.token) { kill(victim, SIGKILL) }
            }
            for node in nodes { node.send("go") }
            if !round.isMultiple(of: 2) {
                usleep(UInt32.random(in: 0...30_000))
                kill(victim, SIGKILL)
            }
            for index in nodes.indices {
                let outcome = await nodes[index].lines.next() ?? "(killed)"
                _ = await nodes[index].status()
                let verdict = outcome.hasPrefix("done") ? (outcome.contains("failed") ? "some ended" : "all ok") : outcome
                verdicts[verdict, default: 0] += 1
                XCTAssertTrue(outcome == "(killed)" || outcome.hasPrefix("done ok"), "round \(round): \(outcome)")
                if outcome.contains("failed") {
                    // A session the killed node was refreshing ends: the survivor finds its mark, as
                    // it loads ("none") or as it refreshes (reauthenticationRequired). Nothing else.
                    let ended = outcome.split(separator: " ").filter { $0.contains(":") }
                    XCTAssertTrue(ended.allSatisfy { $0.hasPrefix("reauthenticationRequired:") || $0.hasPrefix("none:") },
                                  "round \(round): only sessions whose refresh was interrupted end: \(outcome)")
                }
            }
            provider.afterAnswering(.token, nil)
            XCTAssertEqual(provider.refreshTokenReuses, 0, "round \(round): a spent refresh token was sent again")
            // Every row is readable, and every lease can be taken again within the bound.
            let rows = try await PostgresHarness.admin().rows("SELECT count(*) FROM session_service_sessions WHERE issuer = $1",
                                                              [configuration.issuer.absoluteString])
            let readable = try await PostgresAccountStore(database: database, configuration: configuration).storedSessions()
            XCTAssertEqual(rows.first?.first, "\(readable.count)", "round \(round): a row no store can read")
            for index in 0..<sessions {
                let store = try PostgresAccountStore(database: database, configuration: configuration).tokenStore(forSubject: String(format: "user-%03d", index))
                let lease = store as? PostgresTokenStore
                let free = try await lease?.withRefreshLock(timeout: database.options.leaseBound + 5) { true }
                XCTAssertEqual(free, true)
            }
            if provider.refreshTokenReuses != 0 { return }
        }
        print("FleetRefreshTests kill -9: \(verdicts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
    }
}
