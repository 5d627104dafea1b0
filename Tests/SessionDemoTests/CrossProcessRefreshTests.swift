import DemoTestSupport
import Foundation
import SessionCore
import SessionTesting
import XCTest

/// Several processes sharing one session file refresh it once: the refresh lock beside the file
/// makes the others adopt the rotated tokens instead of spending the same refresh token again
/// (which LocalProvider, like real providers, answers by revoking the whole grant).
final class CrossProcessRefreshTests: XCTestCase {
    /// A session signed in and stored in a directory of its own, its access token already expired.
    private func expiredSession(at provider: LocalProvider) async throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shared-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let configuration = try provider.configuration()
        let client = SessionClient(configuration: configuration, store: try FileTokenStore(configuration: configuration, directory: directory))
        let tokens = try await client.signIn(agent: HeadlessUserAgent())
        try await client.setTokens(tokens.withExpiry(Date().addingTimeInterval(-60)))
        return directory
    }

    /// Starts `count` children racing for the stored session and returns what each printed.
    private func race(_ count: Int, provider: LocalProvider, store: URL,
                      during: (([ChildProcess]) async -> Void)? = nil) async throws -> [String] {
        var children: [ChildProcess] = []
        for _ in 0..<count {
            var child = try ChildProcess.start("StoreCrashChild", [provider.issuer.absoluteString, store.path, "race"])
            let first = await child.lines.next()
            XCTAssertEqual(first, "ready")
            children.append(child)
        }
        for child in children { child.send("go") }
        await during?(children)
        var outcomes: [String] = []
        for index in children.indices {
            var child = children[index]
            outcomes.append(await child.lines.next() ?? "(killed)")
            _ = await child.status()
        }
        return outcomes
    }

    func testEightProcessesOfAHundredCallersEachRefreshOnce() async throws {
        let provider = try LocalProvider()
        addTeardownBlock { provider.stop() }
        let store = try await expiredSession(at: provider)
        let refreshesBefore = provider.requests(to: .token).count

        let outcomes = try await race(8, provider: provider, store: store)
        XCTAssertEqual(provider.requests(to: .token).count - refreshesBefore, 1, "one refresh for 800 callers in 8 processes")
        XCTAssertEqual(Set(outcomes).count, 1, "every process ends with the same tokens: \(outcomes)")
        XCTAssertTrue(outcomes.allSatisfy { $0.hasPrefix("tokens ") }, "\(outcomes)")
        XCTAssertEqual(provider.refreshTokenReuses, 0)
    }

    /// The lock holder killed at random moments: the lock dies with it, the survivors go on with
    /// the refreshed session or end it cleanly (an interrupted refresh's token is never replayed),
    /// and the file stays readable.
    func testKillingTheLockHolderNeverReplaysNorCorrupts() async throws {
        let provider = try LocalProvider()
        addTeardownBlock { provider.stop() }
        var verdicts: [String: Int] = [:]
        // Each child the victim three times, half of the rounds killing right after the provider's
        // answer; 100 rounds with SESSION_SOAK=1.
        for round in 0..<SoakRounds.count(quick: 12, soak: 100) {
            let store = try await expiredSession(at: provider)
            let outcomes = try await race(4, provider: provider, store: store) { children in
                // The first child to reach the provider is the holder: it is killed right after the
                // provider answered, or at a random moment (the kill's timing is the point here).
                let victim = children[round % children.count].pid
                if round.isMultiple(of: 2) {
                    provider.afterAnswering(.token) { kill(victim, SIGKILL) }
                } else {
                    usleep(UInt32.random(in: 0...20_000))
                    kill(victim, SIGKILL)
                }
            }
            provider.afterAnswering(.token, nil)
            for outcome in outcomes {
                XCTAssertTrue(outcome.hasPrefix("tokens ") || outcome == "error reauthenticationRequired" || outcome == "(killed)",
                              "round \(round): \(outcome)")
                verdicts[outcome.hasPrefix("tokens ") ? "tokens" : outcome, default: 0] += 1
            }
            XCTAssertLessThanOrEqual(Set(outcomes.filter { $0.hasPrefix("tokens ") }).count, 1, "round \(round): one session: \(outcomes)")
            XCTAssertEqual(provider.refreshTokenReuses, 0, "round \(round): a spent refresh token was sent again")
            let next = try await DemoProcess.run([provider.issuer.absoluteString, store.path, "verify"], executable: "StoreCrashChild")
            let verdict = next.output.trimmingCharacters(in: .whitespacesAndNewlines)
            XCTAssertTrue(verdict == "ok" || verdict == "none", "round \(round): the next launch found \(verdict)")
            if provider.refreshTokenReuses != 0 { return }
        }
        print("CrossProcessRefreshTests: \(verdicts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
    }
}
