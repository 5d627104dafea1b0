import Foundation
import SessionCore
import XCTest

/// `SessionClock.sleep(seconds:)` as the system clock does it: any count a caller can write is a
/// wait a task can make, and cancellation ends it.
final class SystemClockTests: XCTestCase {
    func testAWaitWithoutEndLastsUntilItsTaskIsCancelled() async throws {
        let started = expectation(description: "the wait began")
        let waiting = Task {
            started.fulfill()
            try await SystemClock().sleep(seconds: .infinity)
        }
        await fulfillment(of: [started], timeout: 10)
        waiting.cancel()
        do {
            try await waiting.value
            XCTFail("a wait without end returned by itself")
        } catch is CancellationError {
        }
    }

    func testANegativeOrNotANumberCountWaitsNoTime() async throws {
        for seconds in [-1, -TimeInterval.infinity, .nan] {
            try await SystemClock().sleep(seconds: seconds)
        }
    }
}
