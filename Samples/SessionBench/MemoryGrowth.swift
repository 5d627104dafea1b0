import Foundation
import SessionCore
import SessionFacade
import SessionTesting

/// Resident memory over many facade operations: what a long-running app (and a long-running
/// LocalProvider, which answers them in process) keeps.
enum MemoryGrowth {
    static func facade(_ options: BenchOptions, into report: inout Report) async throws {
        let provider = try LocalProvider()
        defer { provider.stop() }
        let service = try await signedInService(provider, transport: provider.inProcessTransport)
        try await chainedUserInfo(service, count: options.memoryWarmUp)
        guard let before = residentMemory() else { return }
        try await chainedUserInfo(service, count: options.memoryOperations)
        guard let after = residentMemory() else { return }
        let detail = "resident memory after \(options.memoryOperations) fetchUserInfo calls minus before them, "
            + "after \(options.memoryWarmUp) to warm up"
        report.add("memory-growth.facade.\(options.memoryOperations)-operations", Double(after - before) / 1_048_576, "MiB",
                   goal: options.quick ? nil : 2, detail)
        report.add("provider.retained-credentials", Double(provider.retainedCredentials), "codes and tokens",
                   "what the LocalProvider remembers after the run")
    }
}
