import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a small file a user names (a key or secret file), refusing at once anything that is not
/// a regular file (opening a FIFO for reading would otherwise wait for a writer for ever), and, as
/// ssh refuses a private key, a file another user (but root) owns, or that others may read or
/// anyone but its owner may write: a secret others can read is no secret, and one others can
/// replace is not the user's. Group read is allowed (`root:service 0640` is how servers share one).
package enum RegularFile {
    /// Why a file could not be read.
    package struct Refusal: Error, Sendable {
        /// Says why, naming the path.
        package let reason: String
    }

    /// The contents of the regular file at `path`, at most `limit` bytes.
    /// - Throws: ``Refusal`` for a missing or unreadable path, anything but a regular file, a file
    ///   of another user, one others may read or anyone but its owner may write, or a file larger
    ///   than `limit`.
    package static func read(_ path: String, limit: Int) throws -> Data {
        // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw Refusal(reason: "cannot open \(path)") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw Refusal(reason: "\(path) is not a regular file")
        }
        guard status.st_uid == geteuid() || status.st_uid == 0 else {
            throw Refusal(reason: "\(path) belongs to user \(status.st_uid), not to this one: a key or secret must be the user's own (or root's)")
        }
        guard status.st_mode & 0o026 == 0 else {
            let mode = String(status.st_mode & 0o777, radix: 8)
            throw Refusal(reason: "\(path) has mode \(mode): a key or secret must not be readable by others nor writable by anyone but its owner "
                + "(chmod 600 \(path))")
        }
        switch contents(of: descriptor, limit: limit) {
        case .data(let data): return data
        case .tooLarge: throw Refusal(reason: "\(path) is larger than \(limit) bytes")
        case .failed: throw Refusal(reason: "cannot read \(path)")
        }
    }

    /// What reading an open file to its end gave.
    package enum Contents {
        /// The whole file.
        case data(Data)
        /// More than the limit: reading stopped there.
        case tooLarge
        /// `read(2)` failed; `errno` says why.
        case failed
    }

    /// Reads the open `descriptor` to its end, at most `limit` bytes.
    package static func contents(of descriptor: Int32, limit: Int) -> Contents {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = readBytes(descriptor, &buffer, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                return .failed
            }
            if count == 0 { return .data(data) }
            data.append(contentsOf: buffer[0..<count])
            if data.count > limit { return .tooLarge }
        }
    }
}

/// The system's `read(2)`, under a name `RegularFile.read` does not shadow.
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
