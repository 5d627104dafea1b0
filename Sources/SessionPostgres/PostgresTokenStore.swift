#if canImport(CLibPQ)
import Foundation
import SessionCore

/// A ``SessionCore/SharedTokenStore`` in PostgreSQL, shared by every node of a service: one row
/// per session (issuer, client ID, account) in `session_service_sessions`, holding the same
/// versioned envelope as the file store (at most 1 MiB) and a version number that every write
/// increments.
///
/// Refreshes take the session's lease across the fleet (``withRefreshLock(_:)``): the
/// ``SessionCore/SessionClient`` then re-reads the row (another node may have refreshed: its tokens
/// are adopted), marks it as refreshing before the request goes out, and writes the rotated tokens
/// only if the version is still the one it read. A node that dies mid-refresh leaves the mark, so
/// no other node sends a refresh token that may be spent; the lease dies with the node.
///
/// Failures are `storageFailed`, naming the cause (the database unreachable, a lost connection, a
/// statement timeout), never the connection string; the session in memory is kept and the next
/// call connects again. A row that is not a session of this client (a truncated envelope, another
/// client's, an unknown version) is `storageCorrupt`, for that session only, and left in place.
public struct PostgresTokenStore: SharedTokenStore {
    /// The database the sessions are in.
    public let database: PostgresDatabase
    let key: PostgresSessionKey
    private let codec: StoredSessionCodec
    /// Whether refreshes take the fleet-wide lease (always, outside tests that show what happens without it).
    package var takesLease = true

    /// The session of `configuration`'s issuer and client in `database`.
    public init(database: PostgresDatabase, configuration: SessionConfiguration) {
        self.init(database: database, configuration: configuration, account: "")
    }

    /// The session of `account` (``PostgresAccountStore``), or the one session when it is empty.
    init(database: PostgresDatabase, configuration: SessionConfiguration, account: String) {
        self.database = database
        key = PostgresSessionKey(issuer: configuration.issuer.absoluteString, clientID: configuration.clientID, account: account)
        let row = account.isEmpty ? "" : ", account \(account.prefix(8))"
        codec = StoredSessionCodec(configuration: configuration, location: "PostgreSQL session of \(key.issuer) (\(key.clientID))\(row)")
    }

    /// Reads the session; nil when there is no row.
    public func load() async throws -> SessionTokens? {
        let key = self.key
        let found: (String, Int64)? = try await onSessionConnection("read the session") { connection throws(PostgresFailure) in
            let rows = try connection.execute(
                "SELECT envelope, version FROM session_service_sessions WHERE issuer = $1 AND client_id = $2 AND account = $3",
                key.parameters).rows
            guard let row = rows.first, let envelope = row[0], let version = row[1].flatMap({ Int64($0) }) else { return nil }
            return (envelope, version)
        }
        if let lease = lease { lease.seen.value = .some(found?.1) }
        guard let (envelope, _) = found else { return nil }
        return try codec.decode(Data(envelope.utf8))
    }

    /// Writes the session: under the refresh lease, only over the version read under it.
    /// - Throws: `storageFailed` when the database fails, or when another node changed the
    ///   session since it was read under the lease (the lease ran out meanwhile).
    public func save(_ tokens: SessionTokens) async throws {
        let envelope = String(decoding: try codec.encode(tokens), as: UTF8.self)
        let key = self.key
        let expected = lease?.seen.value
        let written: Int64? = try await onSessionConnection("save the session") { connection throws(PostgresFailure) in
            let rows: [[String?]]
            switch expected {
            case .some(.some(let version)):
                rows = try connection.execute("""
                    UPDATE session_service_sessions SET envelope = $4, version = version + 1, updated_at = now()
                    WHERE issuer = $1 AND client_id = $2 AND account = $3 AND version = $5 RETURNING version
                    """, key.parameters + [envelope, "\(version)"]).rows
            case .some(.none):
                rows = try connection.execute("""
                    INSERT INTO session_service_sessions (issuer, client_id, account, envelope, version) VALUES ($1, $2, $3, $4, 1)
                    ON CONFLICT DO NOTHING RETURNING version
                    """, key.parameters + [envelope]).rows
            case .none:
                rows = try connection.execute("""
                    INSERT INTO session_service_sessions (issuer, client_id, account, envelope, version) VALUES ($1, $2, $3, $4, 1)
                    ON CONFLICT (issuer, client_id, account)
                    DO UPDATE SET envelope = EXCLUDED.envelope, version = session_service_sessions.version + 1, updated_at = now()
                    RETURNING version
                    """, key.parameters + [envelope]).rows
            }
            return rows.first?.first.flatMap { $0.flatMap { Int64($0) } }
        }
        guard let written else {
            throw SessionError(.storageFailed, process: .configuration,
                               message: "cannot save the session: another node changed it while this one held its refresh lease (the lease ran out); this node's tokens are not saved")
        }
        if let lease { lease.seen.value = .some(written) }
    }

    /// Deletes the session; succeeds when there is none. Under the refresh lease, a row another
    /// node rewrote since it was read there is left alone: it is that node's session now.
    public func clear() async throws {
        let key = self.key
        let expected = lease?.seen.value
        try await onSessionConnection("delete the session") { connection throws(PostgresFailure) in
            if case .some(.some(let version)) = expected {
                _ = try connection.execute(
                    "DELETE FROM session_service_sessions WHERE issuer = $1 AND client_id = $2 AND account = $3 AND version = $4",
                    key.parameters + ["\(version)"])
            } else {
                _ = try connection.execute("DELETE FROM session_service_sessions WHERE issuer = $1 AND client_id = $2 AND account = $3",
                                           key.parameters)
            }
        }
        if let lease { lease.seen.value = .some(nil) }
    }

    /// Runs `body` holding the session's lease across every node (see ``PostgresLease``):
    /// waiting for it at most 60 s.
    /// - Throws: `storageFailed` when the database cannot be reached or another node kept the
    ///   lease; `body`'s errors.
    public func withRefreshLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await withRefreshLock(timeout: 60, body)
    }

    /// ``withRefreshLock(_:)``, waiting for the lease `timeout` seconds at most.
    package func withRefreshLock<T: Sendable>(timeout: TimeInterval, _ body: @Sendable () async throws -> T) async throws -> T {
        guard takesLease else { return try await body() }
        try await database.prepare()
        let lease = try await PostgresLease.acquire(key, in: database, timeout: timeout)
        do {
            let value = try await PostgresLease.$current.withValue(lease) { try await body() }
            await lease.release()
            return value
        } catch {
            await lease.release()
            throw error
        }
    }

    /// The lease of this session the current task holds through this store's database, if any.
    private var lease: PostgresLease? {
        PostgresLease.current.flatMap { $0.key == key && $0.database === database ? $0 : nil }
    }

    /// Runs `body` on the lease's connection when the current task holds this session's lease,
    /// else on one of the pool's.
    private func onSessionConnection<T: Sendable>(_ what: String, _ body: @escaping @Sendable (PostgresConnection) throws(PostgresFailure) -> T) async throws -> T {
        if let lease { return try await lease.run(what, body) }
        return try await database.withConnection(what, body)
    }
}
#endif
