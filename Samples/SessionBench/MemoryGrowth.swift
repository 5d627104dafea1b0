import Foundation
import SessionCore
import SessionFacade
import SessionTesting

/// Resident memory over many operations: what a long-running app (and a long-running
/// LocalProvider, which answers them in process) keeps.
enum MemoryGrowth {
    /// Core `userInfo()` calls over loopback, through the platform's transport (libcurl on
    /// Linux): what a request leaves behind once it has ended.
    static func coreOverLoopback(_ options: BenchOptions, into report: inout Report) async throws {
        // The provider's request log is kept short: what grows is then the client's.
        var settings = LocalProvider.Options()
        settings.requestLogLimit = 100
        let provider = try LocalProvider(options: settings)
        defer { provider.stop() }
        let (client, _) = try await signedInLoopbackClient(provider)
        let warmUp = options.memoryWarmUp / 10, operations = options.memoryOperations / 10
        for _ in 0..<warmUp { _ = try await client.userInfo() }
        guard let before = residentMemory() else { return }
        for _ in 0..<operations { _ = try await client.userInfo() }
        guard let after = residentMemory() else { return }
        report.add("memory-growth.core.loopback.\(operations)-operations", Double(after - before) / 1_048_576, "MiB",
                   goal: options.quick ? nil : 1, "resident memory after \(operations) userInfo() calls over loopback minus before them, after \(warmUp) to warm up")
    }

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
