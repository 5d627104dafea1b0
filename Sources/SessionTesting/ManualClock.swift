import Foundation
import SessionCore

/// A ``SessionClock`` that stands still until a test moves it.
public final class ManualClock: SessionClock, Sendable {
    private let current: Locked<Date>

    /// A clock showing `start` (default: now, rounded to whole seconds).
    public init(_ start: Date = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded())) {
        current = Locked(start)
    }

    /// The time the clock shows.
    public func now() -> Date { current.value }

    /// Moves the clock forward by `seconds` at once instead of waiting them, so a device
    /// sign-in's polling runs at the speed of its requests.
    public func sleep(seconds: TimeInterval) async throws {
        try Task.checkCancellation()
        advance(by: seconds)
        await Task.yield()
        try Task.checkCancellation()
    }

    /// Moves the clock forward by `seconds`.
    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
