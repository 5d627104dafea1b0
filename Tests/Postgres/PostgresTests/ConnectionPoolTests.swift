import Foundation
import SessionCore
@testable import SessionPostgres
import XCTest

/// The pool's bound: a call that finds every connection in use waits for one given back, and
/// no longer than `connectionWaitTimeout`; the pool works on after either.
final class ConnectionPoolTests: XCTestCase {
    func testACallWaitingForABusyPoolGivesUpAtItsDeadlineAndThePoolWorksOn() async throws {
        let database = try PostgresHarness.database { $0.maximumConnections = 1; $0.connectionWaitTimeout = 0.3 }
        try await database.prepare()
        let held = try await database.borrowConnection("hold the only connection")
        let error = await sessionError { _ = try await database.rows("SELECT 1") }
        XCTAssertEqual(error?.code, .storageFailed)
        XCTAssertTrue(error?.message.contains("connectionWaitTimeout") ?? false, error?.message ?? "")
        XCTAssertEqual(database.waitingCalls, 0, "the call that gave up waits no more")
        database.giveBack(held)
        let rows = try await database.rows("SELECT 1")
        XCTAssertEqual(rows, [["1"]])
    }

    func testAWaitingCallGetsTheConnectionGivenBackAndTheNextGivesUpAtItsOwnDeadline() async throws {
        let database = try PostgresHarness.database { $0.maximumConnections = 1; $0.connectionWaitTimeout = 0.3 }
        try await database.prepare()
        let held = try await database.borrowConnection("hold the only connection")
        let waiting = Task { try await database.rows("SELECT 2") }
        // Until the call is queued (bounded by the test's own guard).
        let queued = Date()
        while database.waitingCalls == 0 {
            guard Date().timeIntervalSince(queued) < 10 else { return XCTFail("the call never waited") }
            await Task.yield()
        }
        database.giveBack(held)
        let rows = try await waiting.value
        XCTAssertEqual(rows, [["2"]], "the waiter was handed the connection")
        // The served waiter's deadline passes while the next one waits: only the next one's ends it,
        // and the first is not resumed again (a second resume would stop the process).
        let again = try await database.borrowConnection("hold it again")
        let error = await sessionError { _ = try await database.rows("SELECT 3") }
        XCTAssertEqual(error?.code, .storageFailed)
        database.giveBack(again)
        let last = try await database.rows("SELECT 4")
        XCTAssertEqual(last, [["4"]])
    }
}
