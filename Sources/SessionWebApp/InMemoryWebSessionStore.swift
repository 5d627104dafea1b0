import Foundation
import SessionCore

/// A ``WebSessionStore`` in this process's memory: for a service of one instance, and for tests.
/// Its sessions end with the process. A service of several instances needs a store they share.
public final class InMemoryWebSessionStore: WebSessionStore {
    private struct Entry: Sendable {
        var record: WebSessionRecord
        var tokens: SessionTokens?
    }

    private let entries = Locked<[WebSessionID: Entry]>([:])
    private let logoutTokens = Locked<[String: Date]>([:])

    /// An empty store.
    public init() {}

    /// Keeps a new session with its first tokens.
    public func insert(_ record: WebSessionRecord, tokens: SessionTokens) async throws {
        entries.withLock { $0[record.id] = Entry(record: record, tokens: tokens) }
    }

    /// The record of `id`, nil when there is none or its tokens were cleared.
    public func record(_ id: WebSessionID) async throws -> WebSessionRecord? {
        entries.withLock { entries in entries[id].flatMap { $0.tokens == nil ? nil : $0.record } }
    }

    /// Notes that `id` was used at `date`.
    public func touch(_ id: WebSessionID, at date: Date) async throws {
        entries.withLock { $0[id]?.record.lastUsedAt = date }
    }

    /// Takes `id` out, with its last tokens.
    public func remove(_ id: WebSessionID) async throws -> RemovedWebSession? {
        entries.withLock { $0.removeValue(forKey: id) }.map { RemovedWebSession(record: $0.record, tokens: $0.tokens) }
    }

    /// The sessions of `subject`, newest first.
    public func records(ofSubject subject: String) async throws -> [WebSessionRecord] {
        select { Exact.equal($0.subject, subject) }
    }

    /// The sessions of the provider's session `providerSessionID`, newest first.
    public func records(ofProviderSession providerSessionID: String) async throws -> [WebSessionRecord] {
        select { Exact.equal($0.providerSessionID, providerSessionID) }
    }

    /// Takes out at most `limit` expired sessions, with their last tokens, and forgets the logout
    /// tokens past their expiry.
    public func removeExpired(idleBefore: Date, createdBefore: Date, limit: Int) async throws -> [RemovedWebSession] {
        let now = Date()
        logoutTokens.withLock { $0 = $0.filter { $0.value > now } }
        return entries.withLock { entries in
            let expired = entries.values.filter { $0.record.lastUsedAt < idleBefore || $0.record.createdAt < createdBefore }.prefix(limit)
            return expired.map { entry in
                entries[entry.record.id] = nil
                return RemovedWebSession(record: entry.record, tokens: entry.tokens)
            }
        }
    }

    /// Remembers the logout token `id` until `expiry`; false when it is remembered and not past
    /// its expiry. The sweep forgets the old ones.
    public func noteLogoutToken(_ id: String, until expiry: Date) async throws -> Bool {
        logoutTokens.withLock { remembered in
            if let until = remembered[id], until > Date() { return false }
            remembered[id] = expiry
            return true
        }
    }

    /// Forgets the logout token `id`.
    public func forgetLogoutToken(_ id: String) async throws {
        logoutTokens.withLock { _ = $0.removeValue(forKey: id) }
    }

    /// The tokens of `id`, as a `TokenStore`.
    public func tokenStore(for id: WebSessionID) -> TokenStore {
        EntryTokens(of: id, in: self)
    }

    private func select(_ matches: (WebSessionRecord) -> Bool) -> [WebSessionRecord] {
        entries.withLock { $0.values.filter { $0.tokens != nil && matches($0.record) }.map(\.record) }
            .sorted { $0.createdAt > $1.createdAt }
    }

    /// One session's tokens in the store.
    private struct EntryTokens: TokenStore {
        let id: WebSessionID
        let store: InMemoryWebSessionStore

        init(of id: WebSessionID, in store: InMemoryWebSessionStore) {
            self.id = id
            self.store = store
        }

        func load() async throws -> SessionTokens? {
            store.entries.withLock { $0[id]?.tokens }
        }

        func save(_ tokens: SessionTokens) async throws {
            let saved = store.entries.withLock { entries in
                guard entries[id]?.tokens != nil else { return false }
                entries[id]?.tokens = tokens
                return true
            }
            guard saved else { throw SessionError(.storageFailed, process: .authentication, message: "the web session has ended") }
        }

        func clear() async throws {
            store.entries.withLock { $0[id]?.tokens = nil }
        }
    }
}
