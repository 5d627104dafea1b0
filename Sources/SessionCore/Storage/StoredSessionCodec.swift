import Foundation

/// How every store of the package keeps a session at rest: a versioned JSON envelope that names
/// the issuer and client it belongs to, at most 1 MiB.
///
/// Its errors name the store's `location` (a file's path, a keychain item), never the bytes.
package struct StoredSessionCodec: Sendable {
    /// The largest stored session read or written: far above any real token set, and small
    /// enough that a hostile or damaged store cannot exhaust memory.
    static let maximumSize = 1 << 20

    private struct Envelope: Codable {
        var version: Int
        var issuer: String
        var clientID: String
        var tokens: SessionTokens
    }

    private let issuer: String
    private let clientID: String
    private let location: String

    /// A codec for `configuration`'s issuer and client, in a store its errors call `location`.
    package init(configuration: SessionConfiguration, location: String) {
        self.init(issuer: configuration.issuer.absoluteString, clientID: configuration.clientID, location: location)
    }

    /// A codec for `issuer` and `clientID`, in a store its errors call `location`.
    package init(issuer: String, clientID: String, location: String) {
        self.issuer = issuer
        self.clientID = clientID
        self.location = location
    }

    /// The stored form of `tokens`.
    /// - Throws: `storageFailed` when they cannot be encoded or would not fit in ``maximumSize``.
    package func encode(_ tokens: SessionTokens) throws(SessionError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do {
            data = try encoder.encode(Envelope(version: 1, issuer: issuer, clientID: clientID, tokens: tokens))
        } catch {
            throw failure(.storageFailed, "the session cannot be encoded")
        }
        guard data.count <= Self.maximumSize else { throw failure(.storageFailed, "the session is larger than 1 MiB") }
        return data
    }

    /// The session `data` holds, for this codec's issuer and client.
    /// - Throws: `storageCorrupt` for anything but such a session of at most ``maximumSize``.
    package func decode(_ data: Data) throws(SessionError) -> SessionTokens {
        guard data.count <= Self.maximumSize else { throw failure(.storageCorrupt, "the stored session is larger than 1 MiB") }
        let envelope: Envelope
        do {
            envelope = try JSONDecoder().decode(Envelope.self, from: data)
        } catch {
            throw failure(.storageCorrupt, "the stored data is not a valid session")
        }
        guard envelope.version == 1 else {
            throw failure(.storageCorrupt, "the stored session has unknown version \(envelope.version)")
        }
        guard Exact.equal(envelope.issuer, issuer), Exact.equal(envelope.clientID, clientID) else {
            throw failure(.storageCorrupt, "the stored session belongs to another issuer or client")
        }
        return envelope.tokens
    }

    private func failure(_ code: SessionError.Code, _ why: String) -> SessionError {
        SessionError(code, process: .configuration, message: "\(why) (\(location))")
    }
}
