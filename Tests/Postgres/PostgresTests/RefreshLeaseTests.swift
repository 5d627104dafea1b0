import ClientTestSupport
import Foundation
import SessionCore
@testable import SessionPostgres
import SessionTesting
import XCTest

/// The refresh lease across nodes: one holder at a time, freed with its connection or within its
/// bound, and a write under it that only lands on the version read under it.
final class RefreshLeaseTests: XCTestCase {
    func testOneHolderAtATimeAndTheNextSeesWhatTheFirstWrote() async throws {
        let configuration = try PostgresHarness.configuration()
        // Two nodes: each its own database object, so its own connections.
        let first = PostgresTokenStore(database: try PostgresHarness.database(), configuration: configuration)
        let second = PostgresTokenStore(database: try PostgresHarness.database(), configuration: configuration)
        try await first.save(PostgresHarness.tokens("start"))
        let order = Locked<[String]>([])
        let entered = Signal()
        let release = Signal()
        async let holder: Void = first.withRefreshLock {
            order.withLock { $0.append("first in") }
            _ = try await first.load()
            await entered.raise()
            await release.wait()
            try await first.save(PostgresHarness.tokens("rotated"))
            order.withLock { $0.append("first out") }
        }
        await entered.wait()
        async let waiter: SessionTokens? = second.withRefreshLock {
            order.withLock { $0.append("second in") }
            return try await second.load()
        }
        await release.raise()
        try await holder
        let seen = try await waiter
        XCTAssertEqual(order.value, ["first in", "first out", "second in"])
        XCTAssertEqual(seen?.accessToken, "rotated", "the next holder reads what the first wrote")
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

    func testALeaseWhoseConnectionDiesIsFreeAtOnce() async throws {
        let configuration = try PostgresHarness.configuration()
        let holderDatabase = try PostgresHarness.database(extra: "application_name=doomed-holder")
        let holder = PostgresTokenStore(database: holderDatabase, configuration: configuration)
        let other = PostgresTokenStore(database: try PostgresHarness.database(), configuration: configuration)
        let entered = Signal()
        let never = Signal()
        let held = Task {
            try await holder.withRefreshLock {
                await entered.raise()
                await never.wait()
            }
        }
        await entered.wait()
        // The holder's node dies: its connection ends, and the server drops the lock with it.
        _ = try await PostgresHarness.admin().rows(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'doomed-holder'")
        let taken = try await other.withRefreshLock { "taken" }
        XCTAssertEqual(taken, "taken")
        await never.raise()
        _ = await held.result
    }

    func testALeaseHolderThatStopsRenewingLosesItWithinTheBound() async throws {
        let configuration = try PostgresHarness.configuration()
        let key = PostgresSessionKey(issuer: configuration.issuer.absoluteString, clientID: configuration.clientID, account: "")
        // A frozen node: it took the lease with a bound of 1 s and never renews it.
        let frozen = try PostgresHarness.database(extra: "application_name=frozen")
        _ = try await frozen.withConnection("freeze") { connection throws(PostgresFailure) in
            _ = try connection.execute("SET idle_session_timeout = 1000")
            _ = try connection.execute("SELECT pg_advisory_lock(hashtextextended($1, 0))", [key.lockName])
        }
        let started = Date()
        let other = PostgresTokenStore(database: try PostgresHarness.database(), configuration: configuration)
        let taken = try await other.withRefreshLock { "taken" }
        XCTAssertEqual(taken, "taken")
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "freed by the server's idle timeout, not by a waiter's deadline")
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
