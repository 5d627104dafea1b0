import Foundation
import SessionCore

/// A ``SessionClock`` that stands still until a test moves it.
///
/// `@unchecked Sendable`: `current` is only read and written while holding `lock`.
public final class ManualClock: SessionClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    /// A clock showing `start` (default: now, rounded to whole seconds).
    public init(_ start: Date = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded())) {
        current = start
    }

    /// The time the clock shows.
    public func now() -> Date { lock.withLock { current } }

    /// Moves the clock forward by `seconds`.
    public func advance(by seconds: TimeInterval) {
        lock.withLock { current = current.addingTimeInterval(seconds) }
    }
}
