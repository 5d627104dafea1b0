import Foundation

/// A value behind a lock: the one way the package's classes keep mutable state that several
/// threads reach. Every read and write goes through ``withLock(_:)`` (or ``value``), so the
/// `@unchecked Sendable` of a class holding a `Locked` needs no further argument.
///
/// `@unchecked Sendable`: `stored` is read and written only while holding `lock`.
package final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    /// Holds `value`.
    package init(_ value: Value) {
        stored = value
    }

    /// Runs `body` on the value while holding the lock; `body` must not call back into this lock.
    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try lock.withLock { try body(&stored) }
    }

    /// The value, read or replaced under the lock.
    package var value: Value {
        get { withLock { $0 } }
        set { withLock { $0 = newValue } }
    }
}
