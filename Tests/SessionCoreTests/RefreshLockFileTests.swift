#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SessionCore
import XCTest

/// The cross-process refresh lock: only the user's own lock can make a process wait, and never for ever.
final class RefreshLockFileTests: XCTestCase {
    private var directory: URL!
    private var path: String { directory.appendingPathComponent("session.lock").path }

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("lock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    func testALockHeldElsewhereIsWaitedForABoundedTimeAndTheErrorNamesItsHolder() async throws {
        let holder = try await RefreshLockFile.acquire(path)
        defer { holder.release() }
        // flock locks belong to open files: a second open of the same file conflicts, as another process's would.
        do {
            _ = try await RefreshLockFile.acquire(path, timeout: 0.2)
            XCTFail("the lock is held")
        } catch let error as SessionError {
            XCTAssertEqual(error.code, .storageFailed)
            XCTAssertTrue(error.message.contains("held by process \(getpid())"), error.message)
            XCTAssertTrue(error.message.contains(path), error.message)
        }
    }

    func testWaitingForTheLockEndsWhenTheTaskIsCancelled() async throws {
        let holder = try await RefreshLockFile.acquire(path)
        defer { holder.release() }
        let path = self.path
        let waiter = Task { try await RefreshLockFile.acquire(path, timeout: 600) }
        waiter.cancel()
        do {
            _ = try await waiter.value
            XCTFail("a cancelled wait must end")
        } catch let error as SessionError {
            XCTAssertEqual(error.code, .cancelled)
        }
    }

    func testALockFileOthersCouldOpenIsMadeTheOwnersAlone() async throws {
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o666]))
        let lock = try await RefreshLockFile.acquire(path)
        lock.release()
        let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        XCTAssertEqual(mode, 0o600)
    }

    func testALockDirectoryOthersCanWriteToIsRefused() async throws {
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: directory.path)
        await assertRefused(containing: "group or others can write")
    }

    func testALockFileOrDirectoryOfAnotherUserIsRefused() async throws {
        try XCTSkipUnless(geteuid() == 0, "needs root to give a file to another user")
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]))
        XCTAssertEqual(chown(path, 65534, 65534), 0)
        await assertRefused(containing: "belongs to user 65534")
        XCTAssertEqual(unlink(path), 0)
        XCTAssertEqual(chown(directory.path, 65534, 65534), 0)
        await assertRefused(containing: "directory belongs to user 65534")
    }

    private func assertRefused(containing text: String, file: StaticString = #filePath, line: UInt = #line) async {
        do {
            let lock = try await RefreshLockFile.acquire(path, timeout: 1)
            lock.release()
            XCTFail("the lock must be refused", file: file, line: line)
        } catch let error as SessionError {
            XCTAssertEqual(error.code, .storageFailed, file: file, line: line)
            XCTAssertTrue(error.message.contains(text), error.message, file: file, line: line)
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
    }
}
