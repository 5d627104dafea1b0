import Foundation
import SessionCore

/// What the bench's node processes share: a line on standard output for the process that started
/// them, and the way they end.
enum NodeProcess {
    /// Prints `line` for the parent (it reads line by line).
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Runs a node's work and ends the process: status 0, or, when the work throws, `error MESSAGE`
    /// printed and status 1 (the message of a SessionError only: no value of the work's).
    static func run(_ work: () async throws -> Void) async -> Never {
        do {
            try await work()
        } catch {
            say("error \((error as? SessionError)?.message ?? "\(type(of: error))")")
            exit(1)
        }
        exit(0)
    }
}
