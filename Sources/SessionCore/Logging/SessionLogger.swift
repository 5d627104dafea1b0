import Foundation

/// How much a log line matters.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    /// Request-level detail: endpoints called (values redacted) and statuses.
    case debug
    /// Milestones: discovery loaded, signed in, refreshed, signed out.
    case info
    /// Recoverable trouble: a failed request, a session cleared after a refused refresh.
    case warning
    /// Failures that lose the session, such as a store that cannot save.
    case error

    /// Orders levels from `debug` to `error`.
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Receives the core's log lines. Lines never contain tokens, codes, verifiers, `state` or
/// `nonce` values: URLs are logged without their query values and bodies are never logged.
///
/// The core asks ``minimumLevel`` before it builds a line, so a line below it costs nothing.
public protocol SessionLogger: Sendable {
    /// The lowest level this logger records; the core builds no line below it. Read for every
    /// line, so a logger may change it while running. `debug` unless the logger says otherwise.
    var minimumLevel: LogLevel { get }

    /// Records one line at or above ``minimumLevel``.
    func log(_ level: LogLevel, _ message: String)
}

extension SessionLogger {
    /// Every level: a logger that does not say records all lines.
    public var minimumLevel: LogLevel { .debug }
}

/// Discards every line. The default.
public struct SilentLogger: SessionLogger {
    /// Creates the logger.
    public init() {}
    /// Does nothing.
    public func log(_ level: LogLevel, _ message: String) {}
}

/// Writes lines at or above `minimumLevel` to standard error.
public struct StandardErrorLogger: SessionLogger {
    /// The lowest level written; the core builds no line below it.
    public let minimumLevel: LogLevel

    /// Creates the logger.
    public init(minimumLevel: LogLevel = .info) {
        self.minimumLevel = minimumLevel
    }

    /// Writes `[level] message` to standard error.
    public func log(_ level: LogLevel, _ message: String) {
        guard level >= minimumLevel else { return }
        FileHandle.standardError.write(Data("[SessionService \(level)] \(message)\n".utf8))
    }
}

/// Makes values safe to log.
enum Redaction {
    /// The URL with every query and fragment value replaced by `<redacted>`; names are kept so a
    /// reader can still see which parameters were present.
    static func url(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "<unparseable URL>" }
        let names = components.queryItems?.map(\.name)
        let hadFragment = components.fragment != nil
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        var text = components.string ?? "<unparseable URL>"
        if let names { text += "?" + names.map { "\(FormEncoding.escape($0))=<redacted>" }.joined(separator: "&") }
        if hadFragment { text += "#<redacted>" }
        return text
    }
}

/// Where the core writes its lines: a message is built only when the logger will record it (not
/// for ``SilentLogger``, nor below the logger's ``SessionLogger/minimumLevel``), so lines nobody
/// reads cost no string work per request.
package struct LogSink: Sendable {
    private let logger: SessionLogger?

    /// Writes to `logger`.
    package init(_ logger: SessionLogger) {
        self.logger = logger is SilentLogger ? nil : logger
    }

    /// Writes `message` at `level`, building it only when the logger will record it.
    package func callAsFunction(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard let logger, level >= logger.minimumLevel else { return }
        logger.log(level, message())
    }
}
