import Foundation
import SessionCore
import SessionTesting

/// A new process of a command-line tool, with a fresh session in its file store: it must ask the
/// provider nothing before its own request (the discovery document and key set come from the
/// store while fresh).
enum ColdProcess {
    static func requests(into report: inout Report) async throws {
        let provider = try LocalProvider(clock: SystemClock()) { $0.discoveryMaxAge = 3600 }
        defer { provider.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("session-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = try provider.configuration()
        func newProcess() throws -> SessionClient {
            SessionClient(configuration: configuration, store: try FileTokenStore(configuration: configuration, directory: directory))
        }
        _ = try await newProcess().signIn(agent: HeadlessUserAgent())

        var before = provider.requestLog.count
        let cold = try newProcess()
        _ = try await cold.loadStoredSession()
        _ = try await cold.validTokens()
        report.check("requests.cold-process.validTokens", expected: "0", actual: "\(provider.requestLog.count - before)")

        before = provider.requestLog.count
        let second = try newProcess()
        _ = try await second.loadStoredSession()
        _ = try await second.userInfo()
        report.check("requests.cold-process.userInfo", expected: "/userinfo",
                     actual: provider.requestLog.dropFirst(before).map { $0.path }.joined(separator: " "))
    }
}
