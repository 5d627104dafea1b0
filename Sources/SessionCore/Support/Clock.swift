import Foundation

/// The source of "now" for expiry and ID-token time checks. Inject one to test time.
public protocol SessionClock: Sendable {
    /// The current time.
    func now() -> Date
}

/// The system's wall clock. The default.
public struct SystemClock: SessionClock {
    /// Creates the clock.
    public init() {}
    /// `Date()`.
    public func now() -> Date { Date() }
}
