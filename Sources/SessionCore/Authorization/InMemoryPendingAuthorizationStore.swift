import Foundation

/// A ``PendingAuthorizationStore`` in this process's memory: for tests, and for one server.
/// Expired records are dropped as new ones are kept.
public final class InMemoryPendingAuthorizationStore: PendingAuthorizationStore {
    private let records = Locked<[String: (record: Data, expiresAt: Date)]>([:])

    /// An empty store.
    public init() {}

    /// Keeps `record` under `key` until `expiresAt`.
    public func keep(_ record: Data, key: String, expiresAt: Date) async throws {
        let now = Date()
        records.withLock { records in
            records = records.filter { $0.value.expiresAt > now }
            records[key] = (record, expiresAt)
        }
    }

    /// Takes the record of `key` out; nil when there is none.
    public func take(key: String) async throws -> Data? {
        records.withLock { $0.removeValue(forKey: key)?.record }
    }
}
