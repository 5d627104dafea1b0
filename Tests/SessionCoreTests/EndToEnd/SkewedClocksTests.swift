import ClientTestSupport
import Foundation
import SessionCore
import SessionTesting
import XCTest

/// Three processes on one session file whose clocks differ by seconds, as a fleet's nodes' do,
/// at a provider that revokes the old access token when it rotates (django-oauth-toolkit): the
/// process whose clock runs ahead refreshes first; the others' old token is refused (401), and
/// each of them takes up the rotated tokens under the lock instead of refreshing again — which
/// would revoke the access token every other process just adopted, and so on (a refresh storm).
final class SkewedClocksTests: XCTestCase {
    func testA401AfterAnotherProcessRefreshedIsAnsweredWithItsTokensNotAnotherRefresh() async throws {
        let provider = try LocalProvider(clock: SystemClock()) { options in
            options.accessTokenLifetime = 120
            options.revokesAccessTokenOnRefresh = true
        }
        addTeardownBlock { provider.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("skew-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let configuration = try provider.configuration()
        // Three nodes; the first one's clock runs 5 s ahead, the last one's 5 s behind.
        let start = Date()
        let clocks = [ManualClock(start.addingTimeInterval(5)), ManualClock(start), ManualClock(start.addingTimeInterval(-5))]
        let nodes = try clocks.map { clock in
            SessionClient(configuration: configuration, store: try FileTokenStore(configuration: configuration, directory: directory),
                          transport: CurlTransport(timeout: 5), clock: clock)
        }
        _ = try await nodes[1].signIn(agent: HeadlessUserAgent())
        for node in [nodes[0], nodes[2]] { _ = try await node.loadStoredSession() }
        let before = provider.requests(to: .token).count

        // 57 s later by the middle clock: the token (120 s, refreshed 60 s before it expires) is due
        // on the first node only.
        for clock in clocks { clock.advance(by: 57) }
        _ = try await nodes[0].userInfo()
        XCTAssertEqual(provider.requests(to: .token).count - before, 1, "the node ahead refreshed")

        // The others still hold the revoked access token: each call is refused once, then goes on
        // with the tokens the first node stored.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for node in nodes.dropFirst() {
                for _ in 0..<3 { group.addTask { _ = try await node.userInfo() } }
            }
            try await group.waitForAll()
        }
        _ = try await nodes[0].userInfo()
        XCTAssertEqual(provider.requests(to: .token).count - before, 1, "one refresh for the fleet, not one per refusal")
        XCTAssertEqual(provider.refreshTokenReuses, 0)
        let current = await nodes.asyncMap { await $0.tokens?.accessToken }
        XCTAssertEqual(Set(current).count, 1, "every node uses the one rotated access token")
    }
}

private extension Array {
    func asyncMap<T>(_ transform: (Element) async -> T) async -> [T] {
        var results: [T] = []
        for element in self { results.append(await transform(element)) }
        return results
    }
}
