import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive `flock` on a lock file, held by this process until ``release()`` or its death
/// (the kernel drops a dead process's locks, so a holder killed mid-refresh never blocks the others).
package struct RefreshLockFile: Sendable {
    private let descriptor: Int32

    /// Opens (creating, mode 0600) the lock file at `path` and waits for the lock on a thread of
    /// its own, so that waiting blocks no task.
    /// - Throws: `storageFailed` naming the file when it cannot be opened or locked.
    package static func acquire(_ path: String) async throws -> RefreshLockFile {
        // O_NOFOLLOW: a symbolic link planted at the lock file is refused, not followed.
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw failure("cannot open the refresh lock file", path) }
        let locked: Bool = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var status: Int32
                repeat { status = flock(descriptor, LOCK_EX) } while status != 0 && errno == EINTR
                continuation.resume(returning: status == 0)
            }
        }
        guard locked else {
            let error = failure("cannot take the refresh lock", path)
            close(descriptor)
            throw error
        }
        return RefreshLockFile(descriptor: descriptor)
    }

    /// Releases the lock and closes the file.
    package func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    private static func failure(_ why: String, _ path: String) -> SessionError {
        SessionError(.storageFailed, process: .authentication, message: "\(why): \(String(cString: strerror(errno))) (\(path))")
    }
}
