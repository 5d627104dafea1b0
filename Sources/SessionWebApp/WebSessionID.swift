import Foundation
import SessionCore

/// A web session's name in the store: the SHA-256 of the identifier its browser's cookie holds,
/// in lowercase hex. The identifier itself (32 random bytes) is never stored, so whoever reads
/// the store cannot take over a browser's session with what they read.
public struct WebSessionID: Hashable, Sendable, CustomStringConvertible {
    /// The digest, 64 lowercase hex digits.
    public let digest: String

    /// The ID of the session whose cookie holds `identifier`; nil when `identifier` is not one the
    /// layer makes (32 bytes in canonical base64url).
    init?(identifier: String) {
        guard identifier.utf8.count == 43, let bytes = Base64URL.decode(identifier), bytes.count == 32,
              Exact.equal(Base64URL.encode(bytes), identifier),
              let digest = try? PlatformCrypto.hexDigest(of: identifier, bytes: 32) else { return nil }
        self.digest = digest
    }

    /// An ID read back from a store: `digest` as the store kept it.
    public init(digest: String) {
        self.digest = digest
    }

    /// A fresh identifier for a browser's cookie (256 bits from the system CSPRNG) and its ID.
    static func make() throws -> (identifier: String, id: WebSessionID) {
        let identifier = try RandomToken.generate()
        guard let id = WebSessionID(identifier: identifier) else {
            throw SessionError(.cryptoFailure, process: .authentication, message: "a web session's identifier could not be made")
        }
        return (identifier, id)
    }

    /// The digest's first 8 digits: enough to tell sessions apart in a log, nothing to use.
    public var description: String { "web session \(digest.prefix(8))…" }
}
