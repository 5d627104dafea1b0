import Dispatch
import Foundation
import SessionCore
import SessionTesting

/// One session file shared by several processes: at expiry they must refresh it once between
/// them, and the lock that makes sure of it must cost nothing while the access token is fresh.
enum SharedSession {
    /// The hidden argument that makes session-bench one of the racing processes.
    static let childFlag = "--shared-session-child"
    static let processes = 8
    static let callersPerProcess = 100

    /// `processes` copies of this executable, `callersPerProcess` concurrent callers each, start
    /// together on one expired session in a file store.
    static func refreshRequests(into report: inout Report) async throws {
        let provider = try LocalProvider()
        defer { provider.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("session-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = try provider.configuration()
        let client = SessionClient(configuration: configuration, store: try FileTokenStore(configuration: configuration, directory: directory))
        let tokens = try await client.signIn(agent: HeadlessUserAgent())
        try await client.setTokens(tokens.withExpiry(Date(timeIntervalSinceNow: -60)))
        let before = provider.requests(to: .token).count

        let children = try (0..<processes).map { _ in
            try RacingProcess([childFlag, provider.issuer.absoluteString, directory.path, "\(callersPerProcess)"])
        }
        for child in children where child.readLine() != "ready" { throw CocoaError(.executableLoad) }
        for child in children { child.send("go") }
        let outcomes = Set(children.map { $0.readLine() ?? "" })
        report.check("refresh-requests.\(processes)-processes", expected: "1", actual: "\(provider.requests(to: .token).count - before)")
        report.check("tokens.\(processes)-processes", expected: "one set, no reuse",
                     actual: outcomes.count == 1 && provider.refreshTokenReuses == 0 ? "one set, no reuse"
                         : "\(outcomes.count) sets, \(provider.refreshTokenReuses) reuses")
    }

    /// `validTokens()` with a fresh token, on a file store that other processes could share
    /// (whose refreshes take the lock) ÷ the same on an in-memory store: the lock is never on
    /// this path, so the ratio is noise around 1.
    static func freshPath(_ options: BenchOptions, into report: inout Report) async throws {
        let provider = try LocalProvider()
        defer { provider.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("session-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = try provider.configuration()
        let shared = SessionClient(configuration: configuration, store: try FileTokenStore(configuration: configuration, directory: directory),
                                   transport: provider.inProcessTransport)
        let alone = SessionClient(configuration: configuration, transport: provider.inProcessTransport)
        _ = try await shared.signIn(agent: HeadlessUserAgent(transport: provider.inProcessTransport))
        _ = try await alone.signIn(agent: HeadlessUserAgent(transport: provider.inProcessTransport))
        let sides = [
            Side(name: "valid-tokens.fresh.shared-file-store") { count in
                for _ in 0..<count { _ = try await shared.validTokens() }
            },
            Side(name: "valid-tokens.fresh.in-memory-store") { count in
                for _ in 0..<count { _ = try await alone.validTokens() }
            },
        ]
        let operations = options.inProcessOperations * 10
        let timings = try await measure(rounds: options.rounds, operations: operations, sides)
        report.add(timings, sides, rounds: options.rounds, operations: operations)
        report.add(ratio: "ratio.fresh-path.shared-vs-in-memory", timings, 0, to: 1, goal: nil)
    }

    /// One racing process: restores the session, says "ready", waits for a line, then asks
    /// `callers` concurrent callers for valid tokens and prints a digest of the access token they
    /// all got ("mixed" when they differ) or the error.
    static func child(_ arguments: [String]) async -> Never {
        do {
            guard arguments.count == 3, let issuer = URL(string: arguments[0]), let callers = Int(arguments[2]),
                  let redirect = LocalProvider.Client.demo.redirectURIs.first else { exit(2) }
            let configuration = try SessionConfiguration(issuer: issuer, clientID: LocalProvider.Client.demo.id, redirectURI: redirect)
            let client = SessionClient(configuration: configuration,
                                       store: try FileTokenStore(configuration: configuration, directory: URL(fileURLWithPath: arguments[1])))
            _ = try await client.loadStoredSession()
            say("ready")
            _ = readLine()
            var tokens = Set<String>()
            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<callers { group.addTask { try await client.validTokens().accessToken } }
                for try await token in group { tokens.insert(token) }
            }
            say(tokens.count == 1 ? try PlatformCrypto.hexDigest(of: tokens.first ?? "", bytes: 6) : "mixed")
        } catch {
            say("error \((error as? SessionError)?.code.rawValue ?? "other")")
        }
        exit(0)
    }

    /// Writes `line` at once (standard output to a pipe is otherwise buffered until exit).
    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

/// A child copy of this executable, spoken to line by line.
final class RacingProcess {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()

    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        try process.run()
    }

    func send(_ line: String) {
        try? input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Ends the process at once (SIGKILL), as a crash or an OOM killer would.
    func kill() {
        _ = Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// The next line it prints; nil when it ended first.
    func readLine() -> String? {
        var line = Data()
        while true {
            guard let byte = try? output.fileHandleForReading.read(upToCount: 1), let first = byte.first else {
                return line.isEmpty ? nil : String(decoding: line, as: UTF8.self)
            }
            if first == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(first)
        }
    }
}
