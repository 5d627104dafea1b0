import Foundation

/// A built executable run as a child the test talks to: lines it prints come out of ``lines`` as
/// they arrive, lines for it go to its standard input with ``send(_:)``, and it can be killed.
public struct ChildProcess {
    private let process: Process
    private let input: FileHandle
    /// The lines it prints on standard output, as they arrive.
    public var lines: AsyncStream<String>.Iterator
    private let exit: AsyncStream<Int32>

    /// Its process ID.
    public var pid: Int32 { process.processIdentifier }

    /// Starts the executable `name` (from the build directory) with `arguments`; standard error is dropped.
    public static func start(_ name: String, _ arguments: [String]) throws -> ChildProcess {
        let process = Process()
        process.executableURL = DemoProcess.executable(name)
        process.arguments = arguments
        let output = Pipe(), input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        let (lines, lineSink) = AsyncStream.makeStream(of: String.self)
        let (exit, exitSink) = AsyncStream.makeStream(of: Int32.self)
        let buffer = LineBuffer()
        // Blocking reads on a thread of its own, as DemoProcess reads: a readability handler puts
        // the pipe under a libdispatch source, and a source still registered when a killed child's
        // pipe closes crashed libdispatch's event loop (SIGSEGV in _dispatch_event_loop_drain).
        let handle = output.fileHandleForReading
        Thread.detachNewThread {
            while case let data = handle.availableData, !data.isEmpty {
                buffer.append(data).forEach { lineSink.yield($0) }
            }
            lineSink.finish()
        }
        process.terminationHandler = { exitSink.yield($0.terminationStatus) }
        try process.run()
        return ChildProcess(process: process, input: input.fileHandleForWriting, lines: lines.makeAsyncIterator(), exit: exit)
    }

    /// Writes `line` and a newline to its standard input (ignored once it has exited).
    public func send(_ line: String) {
        try? input.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Its exit status (the signal's number when a signal ended it).
    public func status() async -> Int32 {
        var iterator = exit.makeAsyncIterator()
        return await iterator.next() ?? -1
    }
}

/// Splits output into lines.
/// `@unchecked Sendable`: `pending` is read and written only while holding `lock`.
private final class LineBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var pending = ""

    func append(_ data: Data) -> [String] {
        lock.withLock {
            pending += String(decoding: data, as: UTF8.self)
            var lines = pending.components(separatedBy: "\n")
            pending = lines.removeLast()
            return lines
        }
    }
}
