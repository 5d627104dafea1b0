import Foundation

/// A ``PendingAuthorizationStore`` in this process's memory: for tests, and for one server.
/// Expired records are dropped as new ones are kept.
public final class InMemoryPendingAuthorizationStore: PendingAuthorizationStore {
    private struct Contents {
        var records: [String: (record: Data, expiresAt: Date)] = [:]
        var finished: [String: Date] = [:]
    }

    private let contents = Locked(Contents())

    /// An empty store.
    public init() {}

    /// Keeps `record` under `key` until `expiresAt`.
    public func keep(_ record: Data, key: String, expiresAt: Date) async throws {
        let now = Date()
        contents.withLock { contents in
            contents.records = contents.records.filter { $0.value.expiresAt > now }
            contents.records[key] = (record, expiresAt)
        }
    }

    /// Takes the record of `key` out if `check` accepts it (under the store's lock); nil when
    /// there is none.
    public func take(key: String, checking check: @escaping @Sendable (Data) throws -> Void) async throws -> Data? {
        let now = Date()
        return try contents.withLock { contents in
            guard let kept = contents.records[key], kept.expiresAt > now else { return nil }
            try check(kept.record)
            contents.records.removeValue(forKey: key)
            return kept.record
        }
    }

    /// Notes `key` as finished until `expiresAt`; false when it was noted before.
    public func noteFinished(key: String, expiresAt: Date) async throws -> Bool {
        let now = Date()
        return contents.withLock { contents in
            contents.finished = contents.finished.filter { $0.value > now }
            guard contents.finished[key] == nil else { return false }
            contents.finished[key] = expiresAt
            return true
        }
    }
}
