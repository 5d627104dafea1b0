#if canImport(CLibPQ)
import Foundation
import SessionCore

/// A `SharedTokenStore` in PostgreSQL, shared by every node of a service: one row
/// per session (issuer, client ID, account) in `session_service_sessions`, holding the same
/// versioned envelope as the file store (at most 1 MiB), sealed with the database's
/// ``PostgresDatabase/sealingKeys``, and a version number that every write increments.
///
/// Made this way it is the one session of an issuer and client: a command-line tool's, or a
/// service acting as itself. A service that signs users in keeps one session per user: use
/// ``PostgresAccountStore`` (a row per account) with `AccountSessions`.
///
/// Refreshes take the session's lease across the fleet (``withRefreshLock(_:)``): the
/// `SessionClient` then re-reads the row (another node may have refreshed: its tokens
/// are adopted), marks it as refreshing before the request goes out, and writes the rotated tokens
/// only if the version is still the one it read and no other node holds the lease. A node that
/// dies mid-refresh leaves the mark, so no other node sends a refresh token that may be spent;
/// its lease runs out within ``PostgresDatabase/Options/leaseBound``.
///
/// Failures are `storageFailed`, naming the cause (the database unreachable, a lost connection, a
/// statement timeout), never the connection string; the session in memory is kept and the next
/// call connects again. A save outlasts a short outage: it is tried again for
/// ``PostgresDatabase/Options/saveRetryWindow``. A row that is not a session of this client — not
/// sealed by the service's keys, sealed for another row, another subject's, larger than the cap —
/// is `storageCorrupt`, for that session only, and left in place.
public struct PostgresTokenStore: SharedTokenStore {
    /// The database the sessions are in.
    public let database: PostgresDatabase
    let key: PostgresSessionKey
    private let codec: StoredSessionCodec
    /// The subject whose account row this is; nil for the one session of an issuer and client.
    private let subject: String?
    private let location: String
    /// Whether refreshes take the fleet-wide lease (always, outside tests that show what happens without it).
    package var takesLease = true

    /// The largest sealed row read: the codec's 1 MiB, sealed and in base64url, with room for the prefix.
    static let maximumRowSize = 1_400_000

    /// The session of `configuration`'s issuer and client in `database`.
    public init(database: PostgresDatabase, configuration: SessionConfiguration) {
        self.init(database: database, configuration: configuration, account: "", subject: nil)
    }

    /// The session of `subject`'s account (``PostgresAccountStore``) in row `account`.
    init(database: PostgresDatabase, configuration: SessionConfiguration, account: String, subject: String?) {
        self.database = database
        self.subject = subject
        key = PostgresSessionKey(issuer: configuration.issuer.absoluteString, clientID: configuration.clientID, account: account)
        let row = account.isEmpty ? "" : ", account \(account.prefix(8))"
        location = "PostgreSQL session of \(key.issuer) (\(key.clientID))\(row)"
        codec = StoredSessionCodec(configuration: configuration, location: location)
    }

    /// Reads the session; nil when there is no row.
    /// - Throws: `storageFailed`; `storageCorrupt` for a row that is not this session's.
    public func load() async throws -> SessionTokens? {
        let key = self.key
        let found: StoredRow? = try await database.withConnection("read the session") { connection throws(PostgresFailure) in
            try StoredRow(connection.execute("""
                SELECT CASE WHEN octet_length(envelope) <= $4 THEN envelope END, octet_length(envelope), version
                FROM session_service_sessions WHERE issuer = $1 AND client_id = $2 AND account = $3
                """, key.parameters + ["\(Self.maximumRowSize)"]).rows.first)
        }
        if let lease { lease.seen.value = .some(found?.version) }
        guard let found else { return nil }
        return try open(found)
    }

    /// The session a row holds, checked to be this store's.
    func open(_ row: StoredRow) throws -> SessionTokens {
        guard let envelope = row.envelope else {
            throw SessionError(.storageCorrupt, process: .configuration, message: "the stored session is larger than 1 MiB (\(location))")
        }
        let tokens = try codec.decode(try database.seal.open(envelope, for: key.row, location: location))
        if let subject, !Exact.equal(tokens.subject, subject) {
            throw SessionError(.storageCorrupt, process: .configuration, message: "the stored session names another subject (\(location))")
        }
        return tokens
    }

    /// Writes the session, sealed: under the refresh lease, only over the version read under it and
    /// while no other node holds the lease. While the database cannot be reached it is tried again,
    /// for ``PostgresDatabase/Options/saveRetryWindow``.
    /// - Throws: `storageFailed` when the database fails for longer than that, or when another node
    ///   changed the session since it was read under the lease, or holds the lease now (this node's
    ///   ran out).
    public func save(_ tokens: SessionTokens) async throws {
        let envelope = try database.seal.seal(try codec.encode(tokens), for: key.row)
        let key = self.key
        let expected = lease?.seen.value
        let holder = lease?.holder ?? ""
        let written: Int64? = try await database.withConnection("save the session", retryingFor: database.options.saveRetryWindow) {
            connection throws(PostgresFailure) in
            let rows: [[String?]]
            switch expected {
            case .some(.some(let version)):
                rows = try connection.execute("""
                    UPDATE session_service_sessions SET envelope = $4, version = version + 1, updated_at = now()
                    WHERE issuer = $1 AND client_id = $2 AND account = $3 AND version = $5 AND \(PostgresLease.noOtherHolder(parameter: 6))
                    RETURNING version
                    """, key.parameters + [envelope, "\(version)", holder]).rows
            case .some(.none):
                rows = try connection.execute("""
                    INSERT INTO session_service_sessions (issuer, client_id, account, envelope, version)
                    SELECT $1, $2, $3, $4, 1 WHERE \(PostgresLease.noOtherHolder(parameter: 5))
                    ON CONFLICT DO NOTHING RETURNING version
                    """, key.parameters + [envelope, holder]).rows
            case .none:
                rows = try connection.execute("""
                    INSERT INTO session_service_sessions (issuer, client_id, account, envelope, version) VALUES ($1, $2, $3, $4, 1)
                    ON CONFLICT (issuer, client_id, account)
                    DO UPDATE SET envelope = EXCLUDED.envelope, version = session_service_sessions.version + 1, updated_at = now()
                    RETURNING version
                    """, key.parameters + [envelope]).rows
            }
            if let version = rows.first?.first.flatMap({ $0.flatMap { Int64($0) } }) { return version }
            // A try whose connection broke after the server had written it: the row holds this
            // very envelope (its nonce makes it unique), and it is written.
            return try connection.execute("""
                SELECT version FROM session_service_sessions WHERE issuer = $1 AND client_id = $2 AND account = $3 AND envelope = $4
                """, key.parameters + [envelope]).rows.first?.first.flatMap { $0.flatMap { Int64($0) } }
        }
        guard let written else {
            throw SessionError(.storageFailed, process: .configuration,
                               message: "cannot save the session: another node changed it, or holds its refresh lease, since this one read it under the lease (the lease ran out); this node's tokens are not saved")
        }
        if let lease { lease.seen.value = .some(written) }
    }

    /// Deletes the session; succeeds when there is none. Under the refresh lease, a row another
    /// node rewrote since it was read there is left alone: it is that node's session now.
    public func clear() async throws {
        let key = self.key
        let expected = lease?.seen.value
        try await database.withConnection("delete the session") { connection throws(PostgresFailure) in
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

    /// `StoredSessionChangeDetection.reread(every:)` with
    /// ``PostgresDatabase/Options/sessionRecheckInterval``: a session signed out on another node
    /// (its row deleted, a local sign-out included) ends on this one within that time, not at its
    /// access token's expiry. `.none` when the interval is nil.
    public var changeDetection: StoredSessionChangeDetection {
        database.options.sessionRecheckInterval.map { .reread(every: $0) } ?? .none
    }

    /// Runs `body` holding the session's lease across every node (see `PostgresLease`):
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
}

/// A session's row as read: its sealed envelope (nil when it is larger than the cap, which is
/// then not read), and its version.
struct StoredRow: Sendable {
    let envelope: String?
    let version: Int64

    /// The row of `columns` (envelope or NULL, its size, version); nil for no row.
    init?(_ columns: [String?]?) {
        guard let columns, columns.count >= 3, let version = columns[2].flatMap({ Int64($0) }) else { return nil }
        envelope = columns[0]
        self.version = version
    }
}
#endif
