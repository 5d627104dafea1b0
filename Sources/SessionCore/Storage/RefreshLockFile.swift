import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive `flock` on a lock file, held by this process until ``release()`` or its death
/// (the kernel drops a dead process's locks, so a holder killed mid-refresh never blocks the others).
///
/// Only a lock of the user's own can make it wait: the file and the directory it is in must belong
/// to this user, the directory writable by its owner only, the file readable by its owner only
/// (a lock file others can open is one they can hold). The wait is bounded and ends when the task
/// is cancelled; the holder writes its process ID into the file, so a waiter that gives up names it.
package struct RefreshLockFile: Sendable {
    private let descriptor: Int32

    /// How long ``acquire(_:timeout:)`` waits by default: twice the default transport timeout, so
    /// a holder whose one refresh request takes its whole 30 s is still waited for.
    package static let defaultTimeout: TimeInterval = 60

    /// Opens (creating, mode 0600) the lock file at `path` and waits for the lock, `timeout`
    /// seconds at most and while the task is not cancelled; no thread is blocked meanwhile.
    /// - Throws: `storageFailed` naming the file when it or its directory belongs to someone else
    ///   or is open to others, when it cannot be opened, or when the lock stayed held (naming the
    ///   holder); `cancelled` when the task was.
    package static func acquire(_ path: String, timeout: TimeInterval = defaultTimeout) async throws -> RefreshLockFile {
        try checkDirectory(of: path)
        // O_NOFOLLOW: a symbolic link planted at the lock file is refused, not followed.
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard descriptor >= 0 else { throw failure("cannot open the refresh lock file", path) }
        do {
            try checkFile(descriptor, path)
            try await wait(for: descriptor, path, timeout: timeout)
        } catch {
            close(descriptor)
            throw error
        }
        // The holder's process ID, for a waiter that gives up to name.
        let pid = Array("\(getpid())\n".utf8)
        if ftruncate(descriptor, 0) == 0 { _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) } }
        return RefreshLockFile(descriptor: descriptor)
    }

    /// Releases the lock and closes the file.
    package func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// Tries the lock until it is taken, the deadline passes or the task is cancelled; between
    /// tries it waits a little longer each time, up to 50 ms.
    private static func wait(for descriptor: Int32, _ path: String, timeout: TimeInterval) async throws {
        // The uptime clock: a wall clock set back while waiting must not stretch the bound.
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, timeout) * 1_000_000_000)
        var pause: UInt64 = 1_000_000
        while true {
            var status: Int32
            repeat { status = flock(descriptor, LOCK_EX | LOCK_NB) } while status != 0 && errno == EINTR
            if status == 0 { return }
            guard errno == EWOULDBLOCK else { throw failure("cannot take the refresh lock", path) }
            if Task.isCancelled {
                throw SessionError(.cancelled, process: .authentication, message: "waiting for the refresh lock was cancelled (\(path))")
            }
            guard DispatchTime.now().uptimeNanoseconds < deadline else {
                let holder = holderProcess(descriptor).map { "process \($0)" } ?? "another process"
                throw SessionError(.storageFailed, process: .authentication,
                                   message: "the refresh lock is held by \(holder) and was not released within \(wholeSeconds(timeout)) s (\(path)); "
                                       + "if that process is stuck, end it")
            }
            try? await Task.sleep(nanoseconds: pause)
            pause = min(pause * 2, 50_000_000)
        }
    }

    /// The process ID the holder wrote into the file, if there is one.
    private static func holderProcess(_ descriptor: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: bytes.prefix(count), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    private static func checkDirectory(of path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        var status = stat()
        guard stat(directory, &status) == 0 else { throw failure("cannot inspect the lock file's directory", directory) }
        guard status.st_uid == geteuid() else {
            throw SessionError(.storageFailed, process: .authentication,
                               message: "the refresh lock's directory belongs to user \(status.st_uid), not to this one (\(directory)); choose a directory of your own")
        }
        guard status.st_mode & 0o022 == 0 else {
            throw SessionError(.storageFailed, process: .authentication,
                               message: "group or others can write to the refresh lock's directory (mode \(String(status.st_mode & 0o777, radix: 8))) (\(directory)); "
                                   + "make it writable by its owner only (chmod go-w)")
        }
    }

    private static func checkFile(_ descriptor: Int32, _ path: String) throws {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure("cannot inspect the refresh lock file", path) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw SessionError(.storageFailed, process: .authentication, message: "the refresh lock is not a regular file (\(path))")
        }
        guard status.st_uid == geteuid() else {
            throw SessionError(.storageFailed, process: .authentication,
                               message: "the refresh lock file belongs to user \(status.st_uid), not to this one (\(path)); remove it")
        }
        // Ours but open to others (an older file, another umask): others could hold it, so it is made ours alone.
        if status.st_mode & 0o077 != 0, fchmod(descriptor, 0o600) != 0 {
            throw failure("cannot make the refresh lock file private", path)
        }
    }

    private static func failure(_ why: String, _ path: String) -> SessionError {
        SessionError(.storageFailed, process: .authentication, message: "\(why): \(String(cString: strerror(errno))) (\(path))")
    }
}
