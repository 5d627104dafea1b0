import ClientTestSupport
import Foundation
import SessionCore
import SessionTesting
import XCTest

/// Many users' sessions on one `OpenIDProvider`: what the provider publishes is asked for once
/// for all of them, and each session keeps its own promises.
final class SharedProviderTests: XCTestCase {
    private func sessions(_ count: Int) async throws -> (LocalProvider, ManualClock, OpenIDProvider, [SessionClient]) {
        let clock = ManualClock()
        let local = try LocalProvider(clock: clock)
        addTeardownBlock { local.stop() }
        let provider = OpenIDProvider(configuration: try local.configuration(), transport: CurlTransport(timeout: 10), clock: clock)
        let clients = (0..<count).map { _ in SessionClient(provider: provider, store: InMemoryTokenStore()) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in clients { group.addTask { _ = try await client.signIn(agent: HeadlessUserAgent()) } }
            try await group.waitForAll()
        }
        return (local, clock, provider, clients)
    }

    func testTwentySessionsSigningInAtOnceAskForTheDocumentsOnce() async throws {
        let (local, _, _, clients) = try await sessions(20)
        XCTAssertEqual(local.requests(to: .discovery).count, 1)
        XCTAssertEqual(local.requests(to: .jwks).count, 1)
        XCTAssertEqual(local.requests(to: .token).count, 20, "a code exchange each")
        let subjects = await withTaskGroup(of: String?.self) { group in
            for client in clients { group.addTask { await client.tokens?.subject } }
            return await group.reduce(into: [String?]()) { $0.append($1) }
        }
        XCTAssertEqual(Set(subjects), [LocalProvider.User.erika.subject])
    }

    func testAnUnknownKeyIsOneKeySetRequestHoweverManySessionsMeetIt() async throws {
        let (local, clock, _, clients) = try await sessions(10)
        try local.rotateSigningKey()
        clock.advance(by: 60)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in clients { group.addTask { _ = try await client.refresh() } }
            try await group.waitForAll()
        }
        XCTAssertEqual(local.requests(to: .jwks).count, 2, "the first key set, then one reload for the new key")
        // Seen by one session, the new key is known to every session: a later sign-in on the
        // provider asks for nothing.
        _ = try await SessionClient(provider: clients[0].provider).signIn(agent: HeadlessUserAgent())
        XCTAssertEqual(local.requests(to: .jwks).count, 2)
        XCTAssertEqual(local.requests(to: .discovery).count, 1)
    }

    func testEachSessionKeepsItsOwnTokensAndSignOut() async throws {
        let (local, _, _, clients) = try await sessions(2)
        let before = await clients[1].tokens
        try await clients[0].signOut(revokeTokens: true)
        let signedOut = await clients[0].tokens
        XCTAssertNil(signedOut)
        let kept = await clients[1].tokens
        XCTAssertEqual(kept, before, "the other session is untouched")
        XCTAssertTrue(local.isActive(refreshToken: try XCTUnwrap(before?.refreshToken)))
        _ = try await clients[1].userInfo()
    }

    func testAClientMadeTheOldWayHasAProviderOfItsOwn() async throws {
        let local = try LocalProvider()
        defer { local.stop() }
        let configuration = try local.configuration()
        let first = SessionClient(configuration: configuration, transport: CurlTransport(timeout: 5))
        let second = SessionClient(configuration: configuration, transport: CurlTransport(timeout: 5))
        XCTAssertFalse(first.provider === second.provider)
        _ = try await first.discover()
        _ = try await second.discover()
        XCTAssertEqual(local.requests(to: .discovery).count, 2)
    }
}

/// A provider's documents kept once for all its sessions, across runs.
final class ProviderDocumentCacheAcrossRunsTests: XCTestCase {
    func testAServersSessionsReadTheProvidersDocumentsFromOneFileAndTheNextRunAsksForNone() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("documents-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = ManualClock()
        let local = try LocalProvider(clock: clock) { $0.discoveryMaxAge = 3600; $0.jwksMaxAge = 3600 }
        defer { local.stop() }
        let configuration = try local.configuration()
        func run(users: Int) async throws {
            let provider = OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 5), clock: clock,
                                          documentStore: try FileProviderDocumentCache(configuration: configuration, directory: directory))
            for user in 0..<users {
                let store = FileTokenStore(fileURL: directory.appendingPathComponent("user-\(user).json"), configuration: configuration)
                _ = try await SessionClient(provider: provider, store: store).signIn(agent: HeadlessUserAgent())
            }
        }
        try await run(users: 3)
        XCTAssertEqual(local.requests(to: .discovery).count, 1)
        XCTAssertEqual(local.requests(to: .jwks).count, 1)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        XCTAssertEqual(files.filter { $0.hasSuffix(".provider") }.count, 1, "one documents file for the provider, none per session: \(files)")
        XCTAssertEqual(files.filter { $0.hasPrefix("user-") && $0.hasSuffix(".json") }.count, 3)

        // The next run of the server: the documents come from the file.
        try await run(users: 2)
        XCTAssertEqual(local.requests(to: .discovery).count, 1)
        XCTAssertEqual(local.requests(to: .jwks).count, 1)
    }
}
