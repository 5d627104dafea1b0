import Foundation

/// An ``AccountStore`` in memory, for tests and for apps that keep no account across launches:
/// an ``InMemoryTokenStore`` per subject, the same one each time it is asked for.
public final class InMemoryAccountStore: AccountStore {
    private let stores = Locked<[String: InMemoryTokenStore]>([:])

    /// An empty store.
    public init() {}

    /// The store of the account with `subject`, made the first time it is asked for.
    public func tokenStore(forSubject subject: String) throws -> TokenStore {
        stores.withLock { stores in
            if let store = stores[subject] { return store }
            let store = InMemoryTokenStore()
            stores[subject] = store
            return store
        }
    }

    /// The sessions held, one per account that has one.
    public func storedSessions() async throws -> [SessionTokens] {
        var sessions: [SessionTokens] = []
        for (subject, store) in stores.value.sorted(by: { $0.key < $1.key }) {
            if let tokens = try await store.load(), Exact.equal(tokens.subject, subject) { sessions.append(tokens) }
        }
        return sessions
    }
}
