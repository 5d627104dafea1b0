#if canImport(CLibPQ)
import Foundation
import SessionCore

/// How every row SessionPostgres writes is sealed: AES-256-GCM under the application's
/// ``SessionCore/SealingKeys``, which the database never sees, with the row's identity — its table
/// and key columns — as associated data. A role that can read the tables (a backup, a replica, a
/// reporting job) reads nothing of a session; one that can write them cannot make a node accept
/// a row it did not seal, nor one sealed for another row (a session copied under another account
/// does not open there).
///
/// A sealed value is text: `s1.` + the key's id + `.` + base64url(nonce, ciphertext, tag). The
/// id names the key that opens it, so rows sealed before a rotation still open with a previous key.
package struct PostgresRowSeal: Sendable {
    private static let prefix = "s1."
    package let keys: SealingKeys

    package init(keys: SealingKeys) {
        self.keys = keys
    }

    /// The identity of one row: what its seal is bound to.
    package struct Row: Sendable {
        package let table: String
        package let columns: [String]

        package init(table: String, columns: [String]) {
            self.table = table
            self.columns = columns
        }

        /// What the seal authenticates besides the value.
        var associatedData: Data {
            Data((["SessionService row v1", table] + columns).joined(separator: "\n").utf8)
        }
    }

    /// The sealed text of `plaintext` for `row`, under the current key.
    /// - Throws: `cryptoFailure`.
    package func seal(_ plaintext: Data, for row: Row) throws -> String {
        let key = keys.current
        return Self.prefix + key.id + "." + Base64URL.encode(try SealedBox.seal(plaintext, key: key.bytes, associatedData: row.associatedData))
    }

    /// What `text` holds for `row`.
    /// - Throws: `storageCorrupt` naming `location` when it is not sealed (a row of an older
    ///   release, or written by someone else), names a key that is not among ``keys``, or does not
    ///   open for `row` (changed, or sealed for another row).
    package func open(_ text: String, for row: Row, location: String) throws -> Data {
        let bytes = Array(text.utf8)
        guard bytes.starts(with: Self.prefix.utf8), let dot = bytes.dropFirst(Self.prefix.utf8.count).firstIndex(of: UInt8(ascii: ".")) else {
            throw Self.corrupt("the row is not sealed", location)
        }
        let id = String(decoding: bytes[Self.prefix.utf8.count..<dot], as: UTF8.self)
        guard let key = keys.key(id: id) else {
            throw Self.corrupt("the row is sealed with a key that is not among the sealing keys (\(SealingKey.isValid(id: id) ? id : "an invalid id"))", location)
        }
        let encoded = String(decoding: bytes[(dot + 1)...], as: UTF8.self)
        guard let sealed = Base64URL.decode(encoded), Exact.equal(Base64URL.encode(sealed), encoded),
              let plaintext = try SealedBox.open(sealed, key: key.bytes, associatedData: row.associatedData) else {
            throw Self.corrupt("the row's seal does not open: it was changed, or sealed for another row", location)
        }
        return plaintext
    }

    /// True when `text` was sealed with the current key (a row sealed with a previous one is
    /// sealed again when next written).
    func isCurrent(_ text: String) -> Bool {
        text.utf8.starts(with: (Self.prefix + keys.current.id + ".").utf8)
    }

    private static func corrupt(_ why: String, _ location: String) -> SessionError {
        SessionError(.storageCorrupt, process: .configuration, message: "\(why) (\(location))")
    }
}
#endif
