import Foundation

/// `swift run -c release session-bench`: see `BenchOptions.help`.
@main
enum SessionBench {
    static func main() async {
        if CommandLine.arguments.dropFirst().first == SharedSession.childFlag {
            await SharedSession.child(Array(CommandLine.arguments.dropFirst(2)))
        }
        if CommandLine.arguments.dropFirst().first == ProfileLoop.flag {
            await ProfileLoop.run(Array(CommandLine.arguments.dropFirst(2)))
        }
        #if canImport(CLibPQ)
        if CommandLine.arguments.dropFirst().first == FleetSessions.nodeFlag {
            await FleetSessions.node(Array(CommandLine.arguments.dropFirst(2)))
        }
        if CommandLine.arguments.dropFirst().first == FleetChaos.nodeFlag {
            await FleetChaos.node(Array(CommandLine.arguments.dropFirst(2)))
        }
        #endif
        let options: BenchOptions
        do {
            options = try BenchOptions(arguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            FileHandle.standardError.write(Data("session-bench: \((error as? BenchOptions.UsageError)?.message ?? "bad arguments")\n".utf8))
            exit(2)
        }
        if options.help {
            print(BenchOptions.help)
            exit(0)
        }
        let report: Report
        do {
            report = try await run(options)
        } catch {
            FileHandle.standardError.write(Data("session-bench: cannot run: \(error)\n".utf8))
            exit(3)
        }
        if options.json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: (try? encoder.encode(report.document)) ?? Data(), as: UTF8.self))
        } else {
            print(report.text)
        }
        exit(report.allInvariantsHold ? 0 : 1)
    }

    private static func run(_ options: BenchOptions) async throws -> Report {
        var report = Report(quick: options.quick)
        if let file = options.postgres {
            #if canImport(CLibPQ)
            try await FleetSessions.run(options, connectionStringFile: file, into: &report)
            try await FleetChaos.run(options, connectionStringFile: file, into: &report)
            try await WebSessionsBench.postgres(options, connectionStringFile: file, into: &report)
            #else
            throw BenchOptions.UsageError(message: "--postgres: SessionPostgres is built on Linux only")
            #endif
        }
        if options.onlyFleet { return report }
        try await LatencyScenarios.userInfoCoreVersusRaw(options, into: &report)
        try await DPoPCost.userInfoDPoPVersusBearer(options, into: &report)
        try await LatencyScenarios.userInfoFacadeVersusCore(options, inProcess: false, into: &report)
        try await LatencyScenarios.userInfoFacadeVersusCore(options, inProcess: true, into: &report)
        try await LatencyScenarios.signInVersusRaw(options, into: &report)
        try await RefreshStampede.core(options, into: &report)
        try await RefreshStampede.facade(options, into: &report)
        try await MemoryGrowth.facade(options, into: &report)
        try await MemoryGrowth.coreOverLoopback(options, into: &report)
        try await ColdProcess.requests(into: &report)
        try await SharedSession.refreshRequests(into: &report)
        try await SharedSession.freshPath(options, into: &report)
        try await ServerSessions.oneProvider(options, into: &report)
        try await WebSessionsBench.inMemory(options, into: &report)
        return report
    }
}
