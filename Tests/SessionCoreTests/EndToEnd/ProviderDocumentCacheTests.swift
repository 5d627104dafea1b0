import Foundation
import SessionCore
import SessionTesting
import XCTest

/// A later process with a fresh session asks the provider nothing before its own request: the
/// file store keeps the discovery document and key set beside the session, for the lifetime the
/// provider gave them, checked again when read back.
final class ProviderDocumentCacheTests: XCTestCase {
    private var directory: URL!
    private let clock = ManualClock()

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("documents-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func provider(discoveryMaxAge: TimeInterval? = 3600, jwksMaxAge: TimeInterval? = 3600) throws -> LocalProvider {
        let provider = try LocalProvider(clock: clock) { options in
            options.discoveryMaxAge = discoveryMaxAge
            options.jwksMaxAge = jwksMaxAge
        }
        addTeardownBlock { provider.stop() }
        return provider
    }

    /// A client as a new process of the app makes it: its own transport, the same directory.
    private func process(_ provider: LocalProvider) throws -> (SessionClient, FileTokenStore) {
        let configuration = try provider.configuration()
        let store = try FileTokenStore(configuration: configuration, directory: directory)
        return (SessionClient(configuration: configuration, store: store, transport: CurlTransport(timeout: 5), clock: clock), store)
    }

    private func paths(_ provider: LocalProvider, after count: Int) -> [String] {
        provider.requestLog.dropFirst(count).map(\.path)
    }

    /// Asserts that a new process's discovery asks the provider for the document.
    private func assertANewProcessAsksForDiscovery(_ provider: LocalProvider, file: StaticString = #filePath, line: UInt = #line) async throws {
        let before = provider.requestLog.count
        let (client, _) = try process(provider)
        _ = try await client.discover()
        XCTAssertEqual(paths(provider, after: before), ["/.well-known/openid-configuration"], file: file, line: line)
    }

    func testALaterProcessWithAFreshSessionAsksOnlyForWhatItNeeds() async throws {
        let provider = try provider()
        let (first, _) = try process(provider)
        _ = try await first.signIn(agent: HeadlessUserAgent())

        let before = provider.requestLog.count
        let (second, _) = try process(provider)
        _ = try await second.restoreUsableSession()
        XCTAssertEqual(paths(provider, after: before), [], "a fresh session: no request at all")
        _ = try await second.userInfo()
        XCTAssertEqual(paths(provider, after: before), ["/userinfo"], "discovery came from the store")

        // A refresh validates the new ID token with the stored key set.
        let (third, _) = try process(provider)
        _ = try await third.loadStoredSession()
        let beforeRefresh = provider.requestLog.count
        _ = try await third.refresh()
        XCTAssertEqual(paths(provider, after: beforeRefresh), ["/token"])
    }

    func testDocumentsAreAskedForAgainOnceTheirLifetimeIsOver() async throws {
        let provider = try provider(discoveryMaxAge: 600, jwksMaxAge: 86_400)
        let (first, _) = try process(provider)
        _ = try await first.signIn(agent: HeadlessUserAgent())
        clock.advance(by: 601)
        try await assertANewProcessAsksForDiscovery(provider)
    }

    func testNoStoreIsNeverWrittenDown() async throws {
        let provider = try provider(discoveryMaxAge: nil)
        let (first, store) = try process(provider)
        _ = try await first.signIn(agent: HeadlessUserAgent())
        let kept = await store.loadProviderDocuments()
        XCTAssertNil(kept, "the provider sent the document with no-store")
        try await assertANewProcessAsksForDiscovery(provider)
    }

    /// The file is input like any other: unreadable, another issuer's, a lifetime no provider
    /// gives, or a document that is no longer valid, and the provider is asked again.
    func testDocumentsThatCannotBeTrustedAreAskedForAgain() async throws {
        let provider = try provider()
        let (first, store) = try process(provider)
        _ = try await first.signIn(agent: HeadlessUserAgent())
        let loaded = await store.loadProviderDocuments()
        let saved = try XCTUnwrap(loaded)
        let file = store.fileURL.appendingPathExtension("provider")

        var otherIssuer = saved
        otherIssuer.issuer = "https://elsewhere.example"
        var tooLong = saved
        tooLong.discoveryExpiresAt = clock.now().addingTimeInterval(30 * 86_400)
        var invalid = saved
        invalid.discovery = Data(#"{"issuer":"\#(provider.issuer.absoluteString)"}"#.utf8)
        for variant in [otherIssuer, tooLong, invalid] {
            await store.saveProviderDocuments(variant)
            try await assertANewProcessAsksForDiscovery(provider)
        }
        try Data("not json".utf8).write(to: file)
        try await assertANewProcessAsksForDiscovery(provider)
    }

    func testSigningOutDeletesTheDocumentsWithTheSession() async throws {
        let provider = try provider()
        let (client, store) = try process(provider)
        _ = try await client.signIn(agent: HeadlessUserAgent())
        try await client.signOut()
        // What stays is the refresh lock, which sign-out took (a lock file is never deleted: a
        // process waiting on a deleted one would hold a lock nobody else sees); it holds a process ID only.
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        XCTAssertEqual(left.filter { !$0.hasSuffix(".lock") }, [])
        for lock in left.filter({ $0.hasSuffix(".lock") }) {
            let text = try String(contentsOf: directory.appendingPathComponent(lock), encoding: .utf8)
            XCTAssertEqual(text, "\(getpid())\n")
        }
        let kept = await store.loadProviderDocuments()
        XCTAssertNil(kept)
    }
}
