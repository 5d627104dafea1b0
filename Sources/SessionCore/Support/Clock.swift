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
    /// Sleeps the task for `seconds`: not at all for a negative count or NaN, and for at most
    /// about 570 years, so `infinity` waits until the task is cancelled.
    public func sleep(seconds: TimeInterval) async throws {
        guard seconds > 0 else { return try Task.checkCancellation() }
        try await Task.sleep(nanoseconds: UInt64(min(seconds, 18_000_000_000) * 1_000_000_000))
    }
}

/// The system's wall clock. The default.
public struct SystemClock: SessionClock {
    /// Creates the clock.
    public init() {}
    /// `Date()`.
    public func now() -> Date { Date() }
}
