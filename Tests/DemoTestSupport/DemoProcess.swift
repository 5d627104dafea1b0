import Foundation

/// What one run of the built `session-demo` executable printed, for the tests that run it.
public struct DemoRun: Sendable {
    /// The exit status.
    public let status: Int32
    /// Standard output.
    public let output: String
    /// Standard error.
    public let errorOutput: String

    /// The callback lines (`#N [queue] name: summary`), in order.
    public var callbacks: [String] { output.split(separator: "\n").map(String.init).filter { $0.hasPrefix("  #") } }

    /// The callback names, in order.
    public var callbackNames: [String] {
        callbacks.compactMap { line in
            line.split(separator: "]", maxSplits: 1).last?.split(separator: ":").first.map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }
}

/// Starts the built `session-demo` executable.
public enum DemoProcess {
    /// An executable product (`session-demo` by default) in the build directory, next to the
    /// test executable.
    public static func executable(_ name: String = "session-demo") -> URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
    }

    /// Runs the executable `name` with `arguments`, feeding `input` to standard input; `onErrorLine` sees each
    /// line of standard error as it arrives (to play the browser in interop tests).
    public static func run(_ arguments: [String], executable name: String = "session-demo", input: String = "",
                           environment: [String: String] = [:], onErrorLine: (@Sendable (String) -> Void)? = nil) async throws -> DemoRun {
        let process = Process()
        process.executableURL = executable(name)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        let collected = Collected()
        stdout.fileHandleForReading.readabilityHandler = { handle in collected.append(handle.availableData, error: false, onLine: nil) }
        stderr.fileHandleForReading.readabilityHandler = { handle in collected.append(handle.availableData, error: true, onLine: onErrorLine) }
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                continuation.resume(throwing: error)
                return
            }
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        stdout.fileHandleForReading.readabilityHandler = nil
        stderr.fileHandleForReading.readabilityHandler = nil
        collected.append(stdout.fileHandleForReading.readDataToEndOfFile(), error: false, onLine: nil)
        collected.append(stderr.fileHandleForReading.readDataToEndOfFile(), error: true, onLine: onErrorLine)
        return DemoRun(status: status, output: collected.output, errorOutput: collected.errorOutput)
    }
}

/// Output gathered from the readability handlers' threads.
///
/// `@unchecked Sendable`: every member is read and written only while holding `lock`.
private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()
    private var pendingErrorLine = ""

    var output: String { lock.withLock { String(decoding: out, as: UTF8.self) } }
    var errorOutput: String { lock.withLock { String(decoding: err, as: UTF8.self) } }

    func append(_ data: Data, error: Bool, onLine: (@Sendable (String) -> Void)?) {
        guard !data.isEmpty else { return }
        let lines = lock.withLock { () -> [String] in
            guard error else {
                out.append(data)
                return []
            }
            err.append(data)
            pendingErrorLine += String(decoding: data, as: UTF8.self)
            var complete = pendingErrorLine.components(separatedBy: "\n")
            pendingErrorLine = complete.removeLast()
            return complete
        }
        lines.forEach { onLine?($0) }
    }
}
