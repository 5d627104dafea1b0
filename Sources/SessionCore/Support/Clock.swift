import Foundation

/// The source of "now" for expiry and ID-token time checks. Inject one to test time.
public protocol SessionClock: Sendable {
    /// The current time.
    func now() -> Date
    /// Waits `seconds` of this clock's time (a device sign-in's polling interval). The default
    /// sleeps the task; a test clock may move itself instead.
    /// - Throws: `CancellationError` when the task is cancelled.
    func sleep(seconds: TimeInterval) async throws
}

extension SessionClock {
    /// Sleeps the task for `seconds`.
    public func sleep(seconds: TimeInterval) async throws {
        try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
    }
}

/// The system's wall clock. The default.
public struct SystemClock: SessionClock {
    /// Creates the clock.
    public init() {}
    /// `Date()`.
    public func now() -> Date { Date() }
}
