import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One version of a stored session, told apart from the next without decoding it: a file's
/// identity and time (every save renames a new file over the old), or a digest of a keychain
/// item's data. Two stamps are equal only for the same version, whichever process saved it.
package struct StoredSessionStamp: Hashable, Sendable {
    private let bytes: [UInt8]

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }
}

/// A ``LocalTokenStore`` that can say cheaply whether the stored session changed since a stamp
/// was taken; the client then decodes it only when it did.
package protocol StoredSessionStamping {
    /// The stamp of the session stored now; nil when none is (as ``LocalTokenStore/hasStoredSession``
    /// would say false).
    func storedSessionStamp() -> StoredSessionStamp?
}

extension FileTokenStore: StoredSessionStamping {
    /// One `lstat` of the session file: device, inode, modification time and size.
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
        let fields = [UInt64(truncatingIfNeeded: status.st_dev), UInt64(truncatingIfNeeded: status.st_ino),
                      UInt64(truncatingIfNeeded: modified.tv_sec), UInt64(truncatingIfNeeded: modified.tv_nsec),
                      UInt64(truncatingIfNeeded: status.st_size)]
        return StoredSessionStamp(bytes: fields.flatMap { field in withUnsafeBytes(of: field) { Array($0) } })
    }
}

extension KeychainTokenStore: StoredSessionStamping {}
