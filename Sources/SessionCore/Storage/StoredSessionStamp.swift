import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One version of a stored session, told apart from the next without decoding it: a file's
/// identity and time (every save renames a new file over the old), a digest of a keychain item's
/// data, a store's version number. Two stamps are equal only for the same version, whichever
/// process saved it (``TokenStore/storedSessionStamp()``).
public struct StoredSessionStamp: Hashable, Sendable {
    // A file's five numbers, kept apart from a digest so the file's stamp allocates nothing.
    private let file: (device: UInt64, inode: UInt64, seconds: UInt64, nanoseconds: UInt64, size: UInt64)
    private let digest: [UInt8]

    /// A file's stamp.
    init(device: UInt64, inode: UInt64, seconds: UInt64, nanoseconds: UInt64, size: UInt64) {
        file = (device, inode, seconds, nanoseconds, size)
        digest = []
    }

    /// A stamp made of `bytes` that differ for every saved version: a digest of the stored data,
    /// or a version number's bytes (empty: a version that cannot be read now).
    public init(bytes: [UInt8]) {
        file = (0, 0, 0, 0, 0)
        digest = bytes
    }

    /// True for the same version.
    public static func == (a: Self, b: Self) -> Bool {
        a.file == b.file && a.digest == b.digest
    }

    /// Hashes the version.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(file.device)
        hasher.combine(file.inode)
        hasher.combine(file.seconds)
        hasher.combine(file.nanoseconds)
        hasher.combine(file.size)
        hasher.combine(digest)
    }
}

extension FileTokenStore {
    /// One `lstat` of the session file: device, inode, modification time and size; nil when
    /// there is no file.
    public func storedSessionStamp() -> StoredSessionStamp? {
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
                                  seconds: UInt64(truncatingIfNeeded: modified.tv_sec), nanoseconds: UInt64(truncatingIfNeeded: modified.tv_nsec),
                                  size: UInt64(truncatingIfNeeded: status.st_size))
    }
}
