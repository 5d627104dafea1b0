import ClientTestSupport
import Foundation
import SessionCore
@testable import SessionPostgres
import SessionTesting
import XCTest

/// The refresh lease across nodes: one holder at a time, left by a dead holder within its bound,
/// a write under it that only lands on the version read under it, and nothing another role can
/// take or hold to stop it; waiting for it holds no connection.
final class RefreshLeaseTests: XCTestCase {
    func testOneHolderAtATimeAndTheNextSeesWhatTheFirstWrote() async throws {
        let configuration = try PostgresHarness.configuration()
        // Two nodes: each its own database object, so its own connections.
        let first = PostgresTokenStore(database: try PostgresHarness.database(), configuration: configuration)
        let second = PostgresTokenStore(database: try PostgresHarness.database(), configuration: configuration)
        try await PostgresHarness.assertOneHolderAtATime(first, second)
    }

    func testAWriteUnderTheLeaseLandsOnlyOnTheVersionReadUnderIt() async throws {
        let configuration = try PostgresHarness.configuration()
        let store = PostgresTokenStore(database: try PostgresHarness.database(), configuration: configuration)
        let elsewhere = PostgresTokenStore(database: try PostgresHarness.database(), configuration: configuration)
        try await store.save(PostgresHarness.tokens("start"))
        let error = await sessionError {
            try await store.withRefreshLock {
                _ = try await store.load()
                // Another node writes without the lease, as one whose lease ran out would.
                try await elsewhere.save(PostgresHarness.tokens("theirs"))
                try await store.save(PostgresHarness.tokens("mine"))
            }
        }
        XCTAssertEqual(error?.code, .storageFailed)
        XCTAssertTrue(error?.message.contains("another node changed it") == true, error?.message ?? "")
        let kept = try await elsewhere.load()
        XCTAssertEqual(kept?.accessToken, "theirs", "the later writer's session is kept")

        // Clearing under the lease after someone else wrote leaves their row.
        try await store.withRefreshLock {
            _ = try await store.load()
            try await elsewhere.save(PostgresHarness.tokens("theirs again"))
            try await store.clear()
        }
        let stillThere = try await elsewhere.load()
        XCTAssertEqual(stillThere?.accessToken, "theirs again")
    }

    /// A node that died or froze holding the lease: its row runs out within the bound (by the
    /// database's clock), the next node takes it, and the frozen one's write no longer lands.
    func testALeaseWhoseHolderStoppedRenewingIsFreeWithinTheBound() async throws {
        let configuration = try PostgresHarness.configuration()
        let key = PostgresSessionKey(issuer: configuration.issuer.absoluteString, clientID: configuration.clientID, account: "")
        let frozen = PostgresTokenStore(database: try PostgresHarness.database { $0.leaseBound = 1 }, configuration: configuration)
        try await frozen.save(PostgresHarness.tokens("start"))
        let entered = Signal()
        let thawed = Signal()
        let frozenWrite = Task {
            try await frozen.withRefreshLock {
                _ = try await frozen.load()
                await entered.raise()
                await thawed.wait()
                try await frozen.save(PostgresHarness.tokens("from the frozen node"))
            }
        }
        await entered.wait()
        // The holder stops renewing (its process froze): its row is left as it was last written.
        _ = try await PostgresHarness.admin().rows("""
            UPDATE session_service_leases SET expires_at = now() + interval '1 second', holder = holder || '-frozen'
            WHERE issuer = $1 AND client_id = $2 AND account = $3
            """, key.parameters)
        let started = Date()
        let other = PostgresTokenStore(database: try PostgresHarness.database(), configuration: configuration)
        let entered2 = Signal()
        let release = Signal()
        let nextHolder = Task {
            try await other.withRefreshLock {
                await entered2.raise()
                await release.wait()
            }
        }
        await entered2.wait()
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "taken once the bound passed, not at a waiter's deadline")
        await thawed.raise()
        let error = await sessionError { try await frozenWrite.value }
        XCTAssertEqual(error?.code, .storageFailed, "a write of a holder whose lease another node now holds does not land")
        await release.raise()
        try await nextHolder.value
        let kept = try await other.load()
        XCTAssertEqual(kept?.accessToken, "start")
    }

    /// A role that can connect but has no rights on the service's tables: it can neither take a
    /// lease nor stop one being taken. (An advisory lock on the session's key, which anyone could
    /// compute, made every call of that user wait 60 s and fail.)
    func testARoleWithoutRightsOnTheTablesCanNeitherTakeNorBlockALease() async throws {
        let configuration = try PostgresHarness.configuration()
        let store = PostgresTokenStore(database: try PostgresHarness.database(), configuration: configuration)
        try await store.save(PostgresHarness.tokens("start"))
        let intruder = try await PostgresHarness.role("intruder", password: "intruder-password", grants: [])
        // What the previous release locked, held for as long as the intruder likes.
        let held = try await intruder.rawRows("SELECT pg_advisory_lock(hashtextextended($1, 0))",
                                              ["session_service.refresh\n\(configuration.issuer.absoluteString)\n\(configuration.clientID)\n"])
        XCTAssertEqual(held.count, 1)
        _ = try await intruder.rawRows("SELECT pg_advisory_lock(hashtextextended('session_service.schema', 0))")
        let refused = await sessionError {
            _ = try await intruder.rawRows("""
                INSERT INTO session_service_leases (issuer, client_id, account, holder, expires_at) VALUES ($1, $2, '', 'intruder', now() + interval '1 day')
                """, [configuration.issuer.absoluteString, configuration.clientID])
        }
        XCTAssertTrue(refused?.message.contains("42501") == true, refused?.message ?? "")
        let locked = await sessionError { _ = try await intruder.rawRows("SELECT 1 FROM session_service_leases FOR UPDATE") }
        XCTAssertTrue(locked?.message.contains("42501") == true, locked?.message ?? "")

        let taken = try await store.withRefreshLock(timeout: 5) { try await store.load()?.accessToken }
        XCTAssertEqual(taken, "start", "the lease was taken at once")
        // A node starting now prepares the schema whatever the intruder holds.
        let starting = try PostgresHarness.database()
        try await starting.prepare()
    }

    /// Waiting for a lease holds no connection: on a pool of one, the node's other calls go on
    /// while it waits.
    func testWaitingForALeaseHoldsNoConnection() async throws {
        let configuration = try PostgresHarness.configuration()
        let holder = PostgresTokenStore(database: try PostgresHarness.database(), configuration: configuration)
        let node = try PostgresHarness.database { $0.maximumConnections = 1; $0.connectionWaitTimeout = 2 }
        let waiter = PostgresTokenStore(database: node, configuration: configuration)
        let other = PostgresTokenStore(database: node, configuration: try PostgresHarness.configuration())
        try await holder.save(PostgresHarness.tokens("start"))
        let entered = Signal()
        let release = Signal()
        let holding = Task {
            try await holder.withRefreshLock {
                await entered.raise()
                await release.wait()
            }
        }
        await entered.wait()
        let waiting = Task { try await waiter.withRefreshLock(timeout: 30) { "taken" } }
        for index in 0..<5 {
            try await other.save(PostgresHarness.tokens("meanwhile \(index)"))
        }
        let meanwhile = try await other.load()
        XCTAssertEqual(meanwhile?.accessToken, "meanwhile 4", "the pool's one connection served other calls while the lease was awaited")
        await release.raise()
        try await holding.value
        let taken = try await waiting.value
        XCTAssertEqual(taken, "taken")
    }

    func testALongRefreshKeepsItsLeaseByRenewingIt() async throws {
        let configuration = try PostgresHarness.configuration()
        let database = try PostgresHarness.database { $0.leaseBound = 1 }
        let store = PostgresTokenStore(database: database, configuration: configuration)
        try await store.save(PostgresHarness.tokens("start"))
        let other = PostgresTokenStore(database: try PostgresHarness.database(), configuration: configuration)
        let order = Locked<[String]>([])
        let entered = Signal()
        let held = Task {
            try await store.withRefreshLock {
                _ = try await store.load()
                await entered.raise()
                // A provider that takes three bounds to answer: the holder renews the lease meanwhile.
                try await Task.sleep(nanoseconds: 3_000_000_000)
                try await store.save(PostgresHarness.tokens("after a long refresh"))
                order.withLock { $0.append("holder out") }
            }
        }
        await entered.wait()
        let seen = try await other.withRefreshLock {
            order.withLock { $0.append("waiter in") }
            return try await other.load()
        }
        try await held.value
        XCTAssertEqual(order.value, ["holder out", "waiter in"], "the lease outlived three bounds")
        XCTAssertEqual(seen?.accessToken, "after a long refresh")
    }
}
