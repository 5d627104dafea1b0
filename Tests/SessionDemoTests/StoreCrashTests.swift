import DemoTestSupport
import Foundation
import SessionCore
import SessionTesting
import XCTest

/// A client killed with SIGKILL at any moment of a refresh with rotation, or of a sign-out with
/// revocation, leaves a session the next launch can use, or none: never a corrupt file, never a
/// retired refresh token sent again, never a revoked session taken for a live one.
final class StoreCrashTests: XCTestCase {
    /// A child process and the lines it prints.
    private struct Child {
        let process: Process
        var lines: AsyncStream<String>.Iterator
        let exit: AsyncStream<Int32>

        var pid: Int32 { process.processIdentifier }

        /// Its exit status (the signal's number when a signal ended it).
        func status() async -> Int32 {
            var iterator = exit.makeAsyncIterator()
            return await iterator.next() ?? -1
        }
    }

    private func start(_ mode: String, issuer: URL, store: URL) throws -> Child {
        let process = Process()
        process.executableURL = DemoProcess.executable("StoreCrashChild")
        process.arguments = [issuer.absoluteString, store.path, mode]
        let output = Pipe()
        process.standardOutput = output
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
        return Child(process: process, lines: lines.makeAsyncIterator(), exit: exit)
    }

    func testKillingTheClientMidRefreshOrMidSignOutNeverCorruptsNorReplays() async throws {
        let provider = try LocalProvider()
        addTeardownBlock { provider.stop() }
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("store-crash-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: store) }
        var verdicts: [String: Int] = [:]

        for round in 0..<200 {
            let signingOut = round % 4 == 3
            var child = try start(signingOut ? "end" : "refresh", issuer: provider.issuer, store: store)
            guard await child.lines.next() == "ready" else { return XCTFail("round \(round): the child did not start") }
            let pid = child.pid
            switch round % 8 {
            case 0, 4:
                // Right after the provider answered a refresh: the new tokens are not saved yet.
                provider.afterAnswering(.token) { kill(pid, SIGKILL) }
            case 1, 5:
                // A little later: while the answer is read, validated or saved.
                let pause = UInt32.random(in: 0...3_000)
                provider.afterAnswering(.token) { usleep(pause); kill(pid, SIGKILL) }
            case 3:
                // Right after the provider revoked the tokens: the store is not cleared yet.
                provider.afterAnswering(.revocation) { kill(pid, SIGKILL) }
            default:
                // At a random moment (the kill's timing is the point here, not a wait for work).
                usleep(UInt32.random(in: 0...(signingOut ? 10_000 : 30_000)))
                kill(pid, SIGKILL)
            }
            let status = await child.status()
            provider.afterAnswering(.token, nil)
            provider.afterAnswering(.revocation, nil)
            XCTAssertTrue(status == SIGKILL || (signingOut && status == 0), "round \(round): the child ended with \(status)")

            let next = try await DemoProcess.run([provider.issuer.absoluteString, store.path, "verify"], executable: "StoreCrashChild")
            let verdict = next.output.trimmingCharacters(in: .whitespacesAndNewlines)
            XCTAssertTrue(verdict == "ok" || verdict == "none", "round \(round): the next launch found \(verdict)")
            XCTAssertEqual(provider.refreshTokenReuses, 0, "round \(round): a retired refresh token was sent again")
            verdicts["\(signingOut ? "sign-out" : "refresh") killed, next launch: \(verdict)", default: 0] += 1
            if verdict != "ok" && verdict != "none" || provider.refreshTokenReuses != 0 { return }
        }
        print("StoreCrashTests: \(verdicts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
    }
}

/// Splits output into lines.
private final class LineBuffer: Sendable {
    private let pending = Locked("")

    func append(_ data: Data) -> [String] {
        pending.withLock { pending in
            pending += String(decoding: data, as: UTF8.self)
            var lines = pending.components(separatedBy: "\n")
            pending = lines.removeLast()
            return lines
        }
    }
}
