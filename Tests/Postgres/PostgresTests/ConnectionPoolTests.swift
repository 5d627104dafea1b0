import Foundation
import SessionCore
@testable import SessionPostgres
import XCTest

/// The pool's bound: a call that finds every connection in use waits for one given back, and
/// no longer than `connectionWaitTimeout`; the pool works on after either.
final class ConnectionPoolTests: XCTestCase {
    /// A database whose pool has one connection, held by the test, and whose calls wait `wait` seconds at most.
    private func poolOfOneHeld(waitingAtMost wait: TimeInterval) async throws -> (PostgresDatabase, PostgresConnection) {
        let database = try PostgresHarness.database { $0.maximumConnections = 1; $0.connectionWaitTimeout = wait }
        try await database.prepare()
        return (database, try await database.borrowConnection("hold the only connection").connection)
    }

    /// Returns once a call waits for a connection of `database` (10 s at most: a failure guard).
    private func untilACallWaits(_ database: PostgresDatabase, file: StaticString = #filePath, line: UInt = #line) async throws {
        let start = Date()
        while database.waitingCalls == 0 {
            guard Date().timeIntervalSince(start) < 10 else {
                XCTFail("the call never waited", file: file, line: line)
                throw CancellationError()
            }
            await Task.yield()
        }
    }

    /// Every duration of the options is a number of seconds up to a day: "never" (infinity), a
    /// number past what a timer or the server takes, or not a number at all, is refused when the
    /// database is made, not met as a trap at its first call.
    func testOptionsPastWhatTheirTimersTakeAreRefusedUpFront() throws {
        let edits: [(String, (inout PostgresDatabase.Options) -> Void)] = [
            ("statementTimeout", { $0.statementTimeout = .infinity }), ("leaseBound", { $0.leaseBound = 1e300 }),
            ("connectionWaitTimeout", { $0.connectionWaitTimeout = .infinity }), ("retryWindow", { $0.retryWindow = .infinity }),
            ("saveRetryWindow", { $0.saveRetryWindow = .nan }), ("sessionRecheckInterval", { $0.sessionRecheckInterval = .infinity }),
            ("connectTimeout", { $0.connectTimeout = Int.max }),
        ]
        for (name, edit) in edits {
            var options = PostgresDatabase.Options()
            edit(&options)
            XCTAssertThrowsError(try PostgresDatabase(connectionString: "host=127.0.0.1 dbname=sessions", sealingKeys: try PostgresHarness.sealingKeys(),
                                                      options: options), name) { error in
                XCTAssertEqual((error as? SessionError)?.code, .invalidConfiguration, name)
            }
        }
        var longest = PostgresDatabase.Options()
        for edit in [{ (o: inout PostgresDatabase.Options) in o.statementTimeout = 86_400 }, { $0.saveRetryWindow = 86_400 }, { $0.connectTimeout = 86_400 }] {
            edit(&longest)
        }
        XCTAssertNoThrow(try PostgresDatabase(connectionString: "host=127.0.0.1 dbname=sessions", sealingKeys: try PostgresHarness.sealingKeys(),
                                              options: longest), "a day is taken")
    }

    func testACallWaitingForABusyPoolGivesUpAtItsDeadlineAndThePoolWorksOn() async throws {
        let (database, held) = try await poolOfOneHeld(waitingAtMost: 0.3)
        let error = await sessionError { _ = try await database.rows("SELECT 1") }
        XCTAssertEqual(error?.code, .storageFailed)
        XCTAssertTrue(error?.message.contains("connectionWaitTimeout") ?? false, error?.message ?? "")
        XCTAssertEqual(database.waitingCalls, 0, "the call that gave up waits no more")
        database.giveBack(held)
        let rows = try await database.rows("SELECT 1")
        XCTAssertEqual(rows, [["1"]])
    }

    func testAWaitingCallGetsTheConnectionGivenBackAndTheNextGivesUpAtItsOwnDeadline() async throws {
        let (database, held) = try await poolOfOneHeld(waitingAtMost: 0.3)
        let waiting = Task { try await database.rows("SELECT 2") }
        try await untilACallWaits(database)
        database.giveBack(held)
        let rows = try await waiting.value
        XCTAssertEqual(rows, [["2"]], "the waiter was handed the connection")
        // The served waiter's deadline passes while the next one waits: only the next one's ends it,
        // and the first is not resumed again (a second resume would stop the process).
        let again = try await database.borrowConnection("hold it again").connection
        let error = await sessionError { _ = try await database.rows("SELECT 3") }
        XCTAssertEqual(error?.code, .storageFailed)
        database.giveBack(again)
        let last = try await database.rows("SELECT 4")
        XCTAssertEqual(last, [["4"]])
    }

    func testACancelledWaitEndsAtOnceAndLeavesNoWaiterBehind() async throws {
        let (database, held) = try await poolOfOneHeld(waitingAtMost: 60)
        let waiting = Task { try await database.rows("SELECT 5") }
        try await untilACallWaits(database)
        waiting.cancel()
        let error = await sessionError { _ = try await waiting.value }
        XCTAssertEqual(error?.code, .cancelled, "long before the 60 s deadline")
        XCTAssertEqual(database.waitingCalls, 0)
        database.giveBack(held)
        let rows = try await database.rows("SELECT 6")
        XCTAssertEqual(rows, [["6"]], "the connection given back went to the pool, not to the cancelled call")
    }
}
