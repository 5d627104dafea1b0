import SessionCore

/// A ``SessionCore/SessionLogger`` that keeps every line it is given, as `[level] message`, for
/// tests that check what was logged (and that no secret was).
public final class CapturingLogger: SessionLogger, Sendable {
    /// The lowest level recorded.
    public let minimumLevel: LogLevel
    private let captured = Locked<[String]>([])

    /// A logger recording `minimumLevel` and above (default: everything).
    public init(minimumLevel: LogLevel = .debug) {
        self.minimumLevel = minimumLevel
    }

    /// The lines recorded so far, in order.
    public var lines: [String] { captured.value }

    /// Records `message` at `level`.
    public func log(_ level: LogLevel, _ message: String) {
        captured.withLock { $0.append("[\(level)] \(message)") }
    }
}
