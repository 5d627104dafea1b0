import Foundation
import SessionCore

/// Where an app keeps a YeboID session when the default store (the keychain on Apple platforms,
/// a 0600 file elsewhere) does not fit its policy. The session is an opaque, versioned blob of at
/// most 1 MiB; every method throws when it cannot do what it says — a store never pretends to
/// have saved. Never back it with `UserDefaults` or plaintext storage.
///
/// A store shared with an app extension or another process needs the app's own coordination:
/// YeboID makes one process's operations exclusive, not several processes'.
public protocol YeboIDTokenStore: Sendable {
    /// The stored session, or nil when none is stored.
    func read() throws -> Data?
    /// Replaces the stored session with `data`.
    func write(_ data: Data) throws
    /// Removes the stored session; succeeds when there is none.
    func delete() throws
}

/// The store YeboID reads and writes: the app's ``YeboIDTokenStore``, or the platform's.
enum YeboIDStore: Sendable {
    case app(AppStore)
    case local(any LocalTokenStore)

    /// The store as the core uses it.
    var tokenStore: TokenStore {
        switch self {
        case .app(let store): store
        case .local(let store): store
        }
    }

    /// The stored tokens, read at once.
    func loadNow() throws -> SessionTokens? {
        switch self {
        case .app(let store): try store.loadNow()
        case .local(let store): try store.loadNow()
        }
    }
}

/// An app's ``YeboIDTokenStore`` as a core `TokenStore`, in the package's stored
/// form (which names the issuer and client, and marks a refresh or revocation on its way).
struct AppStore: TokenStore {
    let store: YeboIDTokenStore
    let codec: StoredSessionCodec

    func loadNow() throws -> SessionTokens? {
        let data: Data?
        do {
            data = try store.read()
        } catch {
            throw SessionError(.storageFailed, process: .configuration, message: "the app's token store could not be read (\(type(of: error)))")
        }
        return try data.map { try codec.decode($0) }
    }

    func load() async throws -> SessionTokens? { try loadNow() }

    func save(_ tokens: SessionTokens) async throws {
        let data = try codec.encode(tokens)
        do {
            try store.write(data)
        } catch {
            throw SessionError(.storageFailed, process: .authentication, message: "the app's token store could not save (\(type(of: error)))")
        }
    }

    func clear() async throws {
        do {
            try store.delete()
        } catch {
            throw SessionError(.storageFailed, process: .endSession, message: "the app's token store could not delete (\(type(of: error)))")
        }
    }
}
