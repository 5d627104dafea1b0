import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SessionCore
import XCTest

/// The file store on a disk someone else may have prepared: it follows no link, waits on no
/// FIFO, changes the mode of nothing but its own regular file, and refuses a directory others
/// can write to or that another user owns.
final class FileTokenStoreSafetyTests: XCTestCase {
    private var root: URL!
    private var directory: URL!
    private let tokens = SessionTokens(accessToken: "access-secret", refreshToken: "refresh-secret", idToken: nil,
                                       expiresAt: Date(timeIntervalSince1970: 2_000_000_000), scopes: ["openid"], subject: "user-1")

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("store-safety-\(UUID().uuidString)")
        directory = root.appendingPathComponent("store")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    private func store() throws -> FileTokenStore {
        let config = try SessionConfiguration(issuer: XCTUnwrap(URL(string: "https://op.example")), clientID: "client-1",
                                              redirectURI: XCTUnwrap(URL(string: "com.example.app:/cb")))
        return try FileTokenStore(configuration: config, directory: directory)
    }

    private func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    private func assertRefused(_ expected: String, file: StaticString = #filePath, line: UInt = #line,
                               _ body: () async throws -> Void) async {
        do {
            try await body()
            XCTFail("expected a refusal saying \(expected)", file: file, line: line)
        } catch let error as SessionError {
            XCTAssertEqual(error.code, .storageFailed, "\(error)", file: file, line: line)
            XCTAssertTrue(error.message.contains(expected), error.message, file: file, line: line)
            XCTAssertFalse("\(error)".contains("secret"), file: file, line: line)
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
    }

    func testASymbolicLinkToAFileIsNeitherFollowedNorNarrowed() async throws {
        let store = try store()
        let victim = root.appendingPathComponent("victim.txt")
        try Data("someone's file".utf8).write(to: victim)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: victim.path)
        try FileManager.default.createSymbolicLink(at: store.fileURL, withDestinationURL: victim)
        await assertRefused("symbolic link") { _ = try await store.load() }
        XCTAssertEqual(try mode(victim.path), 0o644, "the link's target keeps its mode")
        // A save replaces the link itself; the target is untouched.
        try await store.save(tokens)
        XCTAssertEqual(try String(contentsOf: victim, encoding: .utf8), "someone's file")
        let loaded = try await store.load()
        XCTAssertEqual(loaded, tokens)
    }

    func testASymbolicLinkToADirectoryIsNotFollowed() async throws {
        let store = try store()
        let home = root.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try FileManager.default.createSymbolicLink(at: store.fileURL, withDestinationURL: home)
        await assertRefused("symbolic link") { _ = try await store.load() }
        XCTAssertEqual(try mode(home.path), 0o755, "the directory keeps its mode")
    }

    func testAFIFOIsRefusedAtOnceNotWaitedOn() async throws {
        let store = try store()
        XCTAssertEqual(mkfifo(store.fileURL.path, 0o600), 0)
        let started = Date()
        await assertRefused("not a regular file") { _ = try await store.load() }
        XCTAssertLessThan(Date().timeIntervalSince(started), 1, "refused within a second")
    }

    func testADirectoryOthersCanWriteToIsRefused() async throws {
        let store = try store()
        try await store.save(tokens)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: directory.path)
        await assertRefused("group or others can write") { _ = try await store.load() }
        await assertRefused("group or others can write") { try await store.save(self.tokens) }
        try FileManager.default.setAttributes([.posixPermissions: 0o1777], ofItemAtPath: directory.path)
        await assertRefused("group or others can write") { _ = try await store.load() }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        let loaded = try await store.load()
        XCTAssertEqual(loaded, tokens, "readable by others is not writable by them")
    }

    func testADirectoryOfAnotherUserIsRefused() async throws {
        try XCTSkipUnless(getuid() == 0, "only root can give a directory to another user")
        let store = try store()
        try await store.save(tokens)
        XCTAssertEqual(chown(directory.path, 65534, 65534), 0)
        await assertRefused("belongs to another user") { _ = try await store.load() }
        await assertRefused("belongs to another user") { try await store.save(self.tokens) }
    }
}
