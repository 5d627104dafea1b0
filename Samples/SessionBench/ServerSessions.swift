import Foundation
import SessionCore
import SessionTesting

/// A server's many users on one `OpenIDProvider`, against LocalProvider over loopback: what the
/// provider is asked for, how fast users sign in, what a session costs in memory, and whether the
/// shared provider slows the hot path.
enum ServerSessions {
    static func oneProvider(_ options: BenchOptions, into report: inout Report) async throws {
        let count = options.quick ? 200 : 10_000
        let clock = ManualClock()
        var settings = LocalProvider.Options()
        settings.clock = clock
        settings.requestLogLimit = 3 * count
        let local = try LocalProvider(options: settings)
        defer { local.stop() }
        let transport = PlatformDefaults.httpTransport()
        let provider = OpenIDProvider(configuration: try local.configuration(), transport: transport, clock: clock)
        let agent = HeadlessUserAgent(transport: transport)

        // Sign-ins, sixteen at a time, as a server's request handlers make them.
        let started = DispatchTime.now().uptimeNanoseconds
        var sessions: [SessionClient] = []
        sessions.reserveCapacity(count)
        for batch in stride(from: 0, to: count, by: 16) {
            let made = try await withThrowingTaskGroup(of: SessionClient.self) { group in
                for _ in batch..<min(batch + 16, count) {
                    group.addTask {
                        let session = SessionClient(provider: provider)
                        _ = try await session.signIn(agent: agent)
                        return session
                    }
                }
                return try await group.reduce(into: [SessionClient]()) { $0.append($1) }
            }
            sessions += made
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        report.add("server.sign-ins-per-second.\(count)-sessions", Double(count) / seconds, "/s",
                   "\(count) sign-ins on one provider, 16 at a time, over loopback")
        report.check("server.discovery-requests.\(count)-sessions", expected: "1", actual: "\(local.requests(to: .discovery).count)")
        report.check("server.jwks-requests.\(count)-sessions", expected: "1", actual: "\(local.requests(to: .jwks).count)")

        // Every access token expires: one refresh per session, none shared, none repeated.
        clock.advance(by: 3600)
        let before = refreshRequests(local)
        for batch in stride(from: 0, to: count, by: 16) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for session in sessions[batch..<min(batch + 16, count)] { group.addTask { _ = try await session.validTokens() } }
                try await group.waitForAll()
            }
        }
        report.check("server.refreshes-after-all-expire.\(count)-sessions", expected: "\(count)", actual: "\(refreshRequests(local) - before)")

        try await memoryPerSession(sessions, provider: provider, into: &report)
        try await hotPath(options, session: sessions[0], local: local, transport: transport, clock: clock, into: &report)
    }

    /// Resident memory per session beyond its tokens: as many sessions again, restored without a
    /// request from the tokens the signed-in ones hold (the same strings, already in memory), so
    /// neither the tokens nor the provider's own state count.
    private static func memoryPerSession(_ sessions: [SessionClient], provider: OpenIDProvider, into report: inout Report) async throws {
        var tokens: [SessionTokens] = []
        for session in sessions { if let current = await session.tokens { tokens.append(current) } }
        guard let before = residentMemory() else { return }
        var restored: [SessionClient] = []
        restored.reserveCapacity(tokens.count)
        for session in tokens {
            let client = SessionClient(provider: provider, store: InMemoryTokenStore(session))
            _ = try await client.loadStoredSession()
            restored.append(client)
        }
        guard let after = residentMemory() else { return }
        let perSession = Double(after - before) / Double(max(1, restored.count)) / 1024
        report.add("server.memory-per-session.\(restored.count)-sessions", perSession, "KiB", goal: report.quick ? nil : 16,
                   "resident memory of \(restored.count) sessions restored on one provider from tokens already in memory, per session")
        withExtendedLifetime(restored) {}
    }

    /// `userInfo()` on a session of the shared provider ÷ on a client with a provider of its own.
    private static func hotPath(_ options: BenchOptions, session: SessionClient, local: LocalProvider, transport: HTTPTransport,
                                clock: ManualClock, into report: inout Report) async throws {
        let own = SessionClient(configuration: try local.configuration(), transport: transport, clock: clock)
        _ = try await own.signIn(agent: HeadlessUserAgent(transport: transport))
        let sides = [
            Side(name: "userinfo.shared-provider.loopback") { count in for _ in 0..<count { _ = try await session.userInfo() } },
            Side(name: "userinfo.own-provider.loopback") { count in for _ in 0..<count { _ = try await own.userInfo() } },
        ]
        let timings = try await measure(rounds: options.rounds, operations: options.loopbackOperations, sides)
        report.add(timings, sides, rounds: options.rounds, operations: options.loopbackOperations)
        report.add(ratio: "ratio.shared-vs-own-provider.userinfo.loopback", timings, 0, to: 1, goal: nil)
    }
}
