import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One version of a stored session, told apart from the next without reading it: a store that
/// replaces its file whole on every save (a new file renamed over the old) gives each save a
/// stamp of its own, whichever process saved.
package struct StoredSessionStamp: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64
    let modifiedNanoseconds: Int64
    let size: Int64
}

/// A ``LocalTokenStore`` that can say, at the cost of one `stat`, whether the stored session
/// changed since a stamp was taken; the client then reads it only when it did.
package protocol StoredSessionStamping {
    /// The stamp of the session stored now; nil when none is (or its file cannot be inspected,
    /// as ``LocalTokenStore/hasStoredSession`` would say false).
    func storedSessionStamp() -> StoredSessionStamp?
}

extension FileTokenStore: StoredSessionStamping {
    package func storedSessionStamp() -> StoredSessionStamp? {
        var status = stat()
        // lstat: the store never follows a link at the session file, so neither does its stamp.
        guard lstat(fileURL.path, &status) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = status.st_mtimespec
        #else
        let modified = status.st_mtim
        #endif
        // The fields' integer types differ between platforms; only equality matters here.
        return StoredSessionStamp(device: UInt64(truncatingIfNeeded: status.st_dev), inode: UInt64(truncatingIfNeeded: status.st_ino),
                                  modifiedNanoseconds: Int64(truncatingIfNeeded: modified.tv_sec) &* 1_000_000_000
                                      &+ Int64(truncatingIfNeeded: modified.tv_nsec),
                                  size: Int64(truncatingIfNeeded: status.st_size))
    }
}
