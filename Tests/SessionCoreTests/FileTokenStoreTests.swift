import ClientTestSupport
import Foundation
import SessionCore
import SessionTesting
import XCTest

final class FileTokenStoreTests: XCTestCase {
    private var directory: URL!
    private let tokens = SessionTokens(accessToken: "access-secret", refreshToken: "refresh-secret", idToken: nil,
                                       expiresAt: Date(timeIntervalSince1970: 2_000_000_000), scopes: ["openid"], subject: "user-1")

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)/nested")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory.deletingLastPathComponent())
    }

    private static let issuer = URL(string: "https://op.example")!
    private static let clientID = "client-1"
    private static let redirectURI = URL(string: "com.example.app:/oauth/callback")!

    private func configuration(clientID: String = clientID) throws -> SessionConfiguration {
        try SessionConfiguration(issuer: Self.issuer, clientID: clientID, redirectURI: Self.redirectURI)
    }

    private func store(clientID: String = clientID) throws -> FileTokenStore {
        try FileTokenStore(configuration: try configuration(clientID: clientID), directory: directory)
    }

    private func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    func testRoundTripWithOwnerOnlyPermissions() async throws {
        let store = try store()
        let nothing = try await store.load()
        XCTAssertNil(nothing)
        try await store.save(tokens)
        let loaded = try await store.load()
        XCTAssertEqual(loaded, tokens)
        XCTAssertEqual(try mode(store.fileURL.path), 0o600)
        XCTAssertEqual(try mode(directory.path), 0o700)
        try await store.clear()
        let cleared = try await store.load()
        XCTAssertNil(cleared)
        try await store.clear()
    }

    func testHasStoredSessionAnswersWithoutReading() async throws {
        let store = try store()
        XCTAssertFalse(store.hasStoredSession)
        try await store.save(tokens)
        XCTAssertTrue(store.hasStoredSession)
        try await store.clear()
        XCTAssertFalse(store.hasStoredSession)
    }

    func testAFileWrittenBeforeTokenTypeAndExtraParametersStillLoads() async throws {
        let store = try store()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let older = #"{"clientID":"\#(Self.clientID)","issuer":"\#(Self.issuer.absoluteString)","tokens":{"accessToken":"a","scopes":["openid"]},"version":1}"#
        try Data(older.utf8).write(to: store.fileURL)
        let loaded = try await store.load()
        XCTAssertEqual(loaded?.accessToken, "a")
        XCTAssertNil(loaded?.tokenType)
        XCTAssertEqual(loaded?.additionalParameters, [:])
    }

    func testAFileOthersCanReadIsNarrowedToTheOwnerWhenLoaded() async throws {
        let store = try store()
        try await store.save(tokens)
        chmod(store.fileURL.path, 0o644)
        let loaded = try await store.load()
        XCTAssertEqual(loaded, tokens)
        XCTAssertEqual(try mode(store.fileURL.path), 0o600)
    }

    func testSavingReplacesAtomicallyAndLeavesNoTemporaryFiles() async throws {
        let store = try store()
        try await store.save(tokens)
        try await store.save(tokens.withExpiry(nil))
        let loaded = try await store.load()
        XCTAssertEqual(loaded?.expiresAt, nil)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path).count, 1)
    }

    func testTemporaryFilesOfWritersKilledMidWriteAreRemovedAtTheNextSave() async throws {
        let store = try store()
        try await store.save(tokens)
        // What a writer killed between its write and its rename leaves, a while ago; pid 99999999
        // exceeds any pid_max. A file as recent as a write in progress is left whatever its pid says
        // (a writer in another PID namespace looks dead to this one).
        let dead = store.fileURL.path + ".99999999.12345.tmp"
        let writing = store.fileURL.path + ".99999999.23456.tmp"
        let alive = store.fileURL.path + ".\(getpid()).54321.tmp"
        let unrelated = directory.appendingPathComponent("notes.tmp").path
        for path in [dead, writing, alive, unrelated] { XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("partial".utf8))) }
        let longAgo = Date().addingTimeInterval(-3600)
        for path in [dead, alive, unrelated] { try FileManager.default.setAttributes([.modificationDate: longAgo], ofItemAtPath: path) }
        try await store.save(tokens.withExpiry(nil))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dead), "the dead writer's file is gone")
        XCTAssertTrue(FileManager.default.fileExists(atPath: writing), "a file as recent as a write in progress is left")
        XCTAssertTrue(FileManager.default.fileExists(atPath: alive), "a live writer's is left to it")
        XCTAssertTrue(FileManager.default.fileExists(atPath: unrelated), "files of others are not ours to delete")
    }

    func testACorruptFileIsAClearErrorAndIsLeftInPlace() async throws {
        let store = try store()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for content in [Data("{\"version\":1,\"issuer\":".utf8), Data([0xFF, 0x00, 0x13]), Data("{}".utf8), Data(repeating: 0x20, count: (1 << 20) + 10)] {
            try content.write(to: store.fileURL)
            await assertSessionError(.storageCorrupt) { try await store.load() }
            XCTAssertTrue(FileManager.default.fileExists(atPath: store.fileURL.path))
        }
    }

    /// Every restore fails on an unreadable file until it is deleted; the error names the way
    /// out, and the way out works without a provider.
    func testACorruptSessionIsDiscardedByTheDocumentedCall() async throws {
        let store = try store()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("{\"version\":1,\"issuer\":".utf8).write(to: store.fileURL)
        let harness = try makeLocalHarness()
        let client = SessionClient(configuration: try configuration(), store: store, transport: CurlTransport(timeout: 5), clock: harness.clock)
        for _ in 0..<2 {
            let error = await assertSessionError(.storageCorrupt, process: .configuration) { try await client.loadStoredSession() }
            XCTAssertTrue(error?.message.contains("discardStoredSession() deletes it") == true, error?.message ?? "")
        }
        try await client.discardStoredSession()
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.fileURL.path))
        let restored = try await client.loadStoredSession()
        XCTAssertNil(restored)
        XCTAssertTrue(harness.provider.requestLog.isEmpty, "nothing was asked of the provider")
    }

    func testAFileOfAnotherClientIsNotUsed() async throws {
        let mine = try store()
        let theirs = FileTokenStore(fileURL: mine.fileURL, configuration: try SessionConfiguration(
            issuer: Self.issuer, clientID: "other-client", redirectURI: Self.redirectURI))
        try await theirs.save(tokens)
        await assertSessionError(.storageCorrupt) { try await mine.load() }
    }

    func testAnUnwritableLocationFailsLoudly() async throws {
        try FileManager.default.createDirectory(at: directory.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("a file, not a directory".utf8).write(to: directory)
        await assertSessionError(.storageFailed) { try await self.store().save(self.tokens) }
    }

    func testDifferentClientsGetDifferentFiles() throws {
        XCTAssertNotEqual(try store().fileURL, try store(clientID: "other").fileURL)
    }

    /// A client of `harness`'s provider whose session is in this test's file store, as a new process has.
    private func fileClient(_ harness: LocalHarness) throws -> SessionClient {
        let configuration = harness.client.configuration
        return SessionClient(configuration: configuration, store: try FileTokenStore(configuration: configuration, directory: directory),
                             transport: CurlTransport(timeout: 5), clock: harness.clock)
    }

    /// A provider that gives its access tokens a lifetime past any calendar (how some say "never
    /// expires") leaves a session the next process restores like any other.
    func testASessionWhoseTokensOutliveAnyCalendarIsRestored() async throws {
        let harness = try makeLocalHarness { $0.accessTokenLifetime = 1e13 }
        let tokens = try await fileClient(harness).signIn(agent: HeadlessUserAgent())
        let restored = try await fileClient(harness).loadStoredSession()
        XCTAssertEqual(restored, tokens)
    }

    func testANewClientRestoresTheSessionFromTheFile() async throws {
        let harness = try makeLocalHarness()
        let tokens = try await fileClient(harness).signIn(agent: HeadlessUserAgent())
        let second = try fileClient(harness)
        let restored = try await second.loadStoredSession()
        XCTAssertEqual(restored, tokens)
        let info = try await second.userInfo()
        XCTAssertEqual(info.sub, LocalProvider.User.erika.subject)
    }
}
