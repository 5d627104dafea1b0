/// The turns a ``SessionClient``'s store writes take: one at a time, in the order they came, so a
/// write started later never lands before one started earlier.
struct StoreTurns {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// True when the caller may go at once; false when it must wait (``wait(_:)``).
    mutating func enter() -> Bool {
        defer { busy = true }
        return !busy
    }

    /// Lines up a caller that found the store busy; ``leave()`` resumes it in its turn.
    mutating func wait(_ continuation: CheckedContinuation<Void, Never>) {
        waiting.append(continuation)
    }

    /// The current turn is over: the next caller in line goes, or the store is free.
    mutating func leave() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }
}
