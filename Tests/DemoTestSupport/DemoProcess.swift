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
        // Each output is read to its end by a thread of its own with blocking reads. Readability
        // handlers would put the pipes under libdispatch sources, and a source still registered
        // when its descriptor is closed crashed libdispatch's event loop (once in a few hundred
        // runs of the crash tests).
        let readers = DispatchGroup()
        for (pipe, isError) in [(stdout, false), (stderr, true)] {
            readers.enter()
            let handle = pipe.fileHandleForReading
            let onLine = isError ? onErrorLine : nil
            Thread.detachNewThread {
                while case let data = handle.availableData, !data.isEmpty {
                    collected.append(data, error: isError, onLine: onLine)
                }
                readers.leave()
            }
        }
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                // The readers end when the pipes close with the process object.
                try? stdout.fileHandleForWriting.close()
                try? stderr.fileHandleForWriting.close()
                continuation.resume(throwing: error)
                return
            }
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            readers.notify(queue: .global()) { done.resume() }
        }
        return DemoRun(status: status, output: collected.output, errorOutput: collected.errorOutput)
    }
}

/// Output gathered from the reader threads.
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
