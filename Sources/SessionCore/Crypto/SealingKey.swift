import Foundation

/// A key that seals what the package keeps outside the process — a fleet's rows in a shared
/// database, for one — so that whoever can read or write that place (another role, a backup, a
/// replica) can neither read the sessions nor make a node accept one it did not write. 32 bytes
/// the application keeps as secret as a client secret, and an identifier, stored beside each
/// sealed value, that names the key it was sealed with (so keys can be rotated: ``SealingKeys``).
public struct SealingKey: Sendable, CustomStringConvertible {
    /// The key's name: 1 to 32 characters of `A`–`Z`, `a`–`z`, `0`–`9`, `-`, `_` and `.`, stored
    /// in the clear beside each value sealed with it (a date works well: `2026-12`).
    public let id: String
    package let bytes: Data

    /// The key named `id`, of 32 bytes (from the application's secret store).
    /// - Throws: `invalidConfiguration` for another length, or an identifier outside the rule.
    public init(id: String, bytes: Data) throws {
        guard bytes.count == 32 else {
            throw SessionError(.invalidConfiguration, process: .configuration, message: "a sealing key has 32 bytes, not \(bytes.count)")
        }
        guard Self.isValid(id: id) else {
            throw SessionError(.invalidConfiguration, process: .configuration,
                               message: "a sealing key's id has 1 to 32 characters of A-Z, a-z, 0-9, '-', '_' and '.'")
        }
        self.id = id
        self.bytes = bytes
    }

    /// A fresh key named `id`, from the system CSPRNG.
    /// - Throws: as ``init(id:bytes:)``; `cryptoFailure` when the platform cannot draw one.
    public static func generate(id: String) throws -> SealingKey {
        try SealingKey(id: id, bytes: PlatformCrypto.randomBytes(32))
    }

    /// The identifier only, never the key.
    public var description: String { "SealingKey(\(id))" }

    package static func isValid(id: String) -> Bool {
        let bytes = Array(id.utf8)
        return (1...32).contains(bytes.count) && bytes.allSatisfy { byte in
            ASCII.isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
    }
}

/// The keys a store seals with: the ``current`` one seals everything written from now on; the
/// ``previous`` ones still open what they sealed, until it is written again under the current
/// key. To rotate, make a new key current and keep the old one among the previous until no row
/// sealed with it is left; nobody is signed out.
public struct SealingKeys: Sendable, CustomStringConvertible {
    /// The key new values are sealed with.
    public let current: SealingKey
    /// Keys that only open values sealed before.
    public let previous: [SealingKey]

    /// The keys; their identifiers must differ.
    /// - Throws: `invalidConfiguration` when two keys share an identifier.
    public init(current: SealingKey, previous: [SealingKey] = []) throws {
        let ids = [current.id] + previous.map(\.id)
        guard Set(ids).count == ids.count else {
            throw SessionError(.invalidConfiguration, process: .configuration, message: "two sealing keys have the same id")
        }
        self.current = current
        self.previous = previous
    }

    /// The key named `id`, if it is one of these.
    package func key(id: String) -> SealingKey? {
        Exact.equal(current.id, id) ? current : previous.first { Exact.equal($0.id, id) }
    }

    /// The identifiers only, never the keys.
    public var description: String { "SealingKeys(current: \(current.id), previous: \(previous.map(\.id)))" }
}
