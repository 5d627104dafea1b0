#if canImport(CLibPQ)
import Foundation
import SessionCore
import SessionWebApp

/// Web sessions in PostgreSQL (`WebSessionStore`), shared by every instance of a web application:
/// any instance serves any session, and a session ended on one (a sign-out, a back-channel logout,
/// the sweep) is gone for all of them at their next request.
///
/// A session is a row of `session_service_web_sessions` — the digest of its cookie's identifier,
/// digests of its subject and provider session to find it by, its times, and its subject and
/// `sid` sealed — and its tokens a row of `session_service_sessions` (account `web.` and the
/// digest), with every safeguard of a ``PostgresTokenStore``: sealed, refreshed once across the
/// fleet under its lease. Logout tokens taken are noted in `session_service_logout_tokens`.
public struct PostgresWebSessionStore: WebSessionStore {
    /// The database the sessions are in.
    public let database: PostgresDatabase
    private let configuration: SessionConfiguration
    private var issuer: String { configuration.issuer.absoluteString }
    private var clientID: String { configuration.clientID }

    /// The web sessions of `configuration`'s issuer and client in `database`.
    public init(database: PostgresDatabase, configuration: SessionConfiguration) {
        self.database = database
        self.configuration = configuration
    }

    /// The tokens of `id`: a ``PostgresTokenStore`` row of its own.
    public func tokenStore(for id: WebSessionID) -> TokenStore {
        PostgresTokenStore(database: database, configuration: configuration, account: Self.account(id), subject: nil)
    }

    /// Keeps a new session, its tokens first; when its row cannot be written, the tokens' row is
    /// deleted again (best effort), so no session's tokens are left without it.
    public func insert(_ record: WebSessionRecord, tokens: SessionTokens) async throws {
        let tokenStore = tokenStore(for: record.id)
        try await tokenStore.save(tokens)
        do {
            try await insertRecord(record)
        } catch {
            try? await tokenStore.clear()
            throw error
        }
    }

    private func insertRecord(_ record: WebSessionRecord) async throws {
        let (issuer, clientID) = (self.issuer, self.clientID)
        let sealed = try database.seal.seal(try Self.encode(record), for: row(record.id))
        let parameters: [String?] = [issuer, clientID, record.id.digest, try record.subject.map(Self.digest), try record.providerSessionID.map(Self.digest),
                                     sealed, "\(record.createdAt.timeIntervalSince1970)", "\(record.lastUsedAt.timeIntervalSince1970)"]
        try await database.withConnection("keep the web session") { connection throws(PostgresFailure) in
            _ = try connection.execute("""
                INSERT INTO session_service_web_sessions (issuer, client_id, id, subject_digest, sid_digest, record, created_at, last_used_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                """, parameters)
        }
    }

    /// The record of `id`; nil when there is none, or its tokens are gone.
    public func record(_ id: WebSessionID) async throws -> WebSessionRecord? {
        let (issuer, clientID, account) = (self.issuer, self.clientID, Self.account(id))
        let rows = try await database.withConnection("read the web session") { connection throws(PostgresFailure) in
            try connection.execute("""
                SELECT id, record, created_at, last_used_at FROM session_service_web_sessions web
                WHERE issuer = $1 AND client_id = $2 AND id = $3 AND EXISTS (SELECT 1 FROM session_service_sessions tokens
                    WHERE tokens.issuer = $1 AND tokens.client_id = $2 AND tokens.account = $4)
                """, [issuer, clientID, id.digest, account]).rows
        }
        return try rows.first.map(open)
    }

    /// Notes that `id` was used at `date` (never moving it back).
    public func touch(_ id: WebSessionID, at date: Date) async throws {
        let (issuer, clientID) = (self.issuer, self.clientID)
        try await database.withConnection("note the web session's use") { connection throws(PostgresFailure) in
            _ = try connection.execute("""
                UPDATE session_service_web_sessions SET last_used_at = $4 WHERE issuer = $1 AND client_id = $2 AND id = $3 AND last_used_at < $4
                """, [issuer, clientID, id.digest, "\(date.timeIntervalSince1970)"])
        }
    }

    /// Takes `id` out with its tokens, in one transaction.
    public func remove(_ id: WebSessionID) async throws -> RemovedWebSession? {
        try await take("end the web session") { _ throws(PostgresFailure) in [id.digest] }.first
    }

    /// The sessions of `subject`, newest first.
    public func records(ofSubject subject: String) async throws -> [WebSessionRecord] {
        try await select("subject_digest = $3", try Self.digest(subject)).filter { Exact.equal($0.subject, subject) }
    }

    /// The sessions of the provider session `providerSessionID`, newest first.
    public func records(ofProviderSession providerSessionID: String) async throws -> [WebSessionRecord] {
        try await select("sid_digest = $3", try Self.digest(providerSessionID)).filter { Exact.equal($0.providerSessionID, providerSessionID) }
    }

    /// Takes out at most `limit` expired sessions with their tokens, in one transaction. Rows
    /// another instance holds locked at that moment (a request touching one) are left for the next
    /// sweep. Logout tokens noted more than an hour past their expiry are forgotten too.
    public func removeExpired(idleBefore: Date, createdBefore: Date, limit: Int) async throws -> [RemovedWebSession] {
        let (issuer, clientID) = (self.issuer, self.clientID)
        let parameters = [issuer, clientID, "\(idleBefore.timeIntervalSince1970)", "\(createdBefore.timeIntervalSince1970)", "\(max(0, limit))"]
        // First: once sessions are taken out, a failure may not keep them from the caller.
        try await database.withConnection("forget old logout tokens") { connection throws(PostgresFailure) in
            _ = try connection.execute(Self.forgetOldLogoutTokens, [issuer, clientID])
        }
        return try await take("sweep the web sessions") { connection throws(PostgresFailure) in
            try connection.execute(Self.expiredSessions, parameters).rows.compactMap { $0[0] }
        }
    }

    /// The identifiers of expired sessions ($3 idle before, $4 created before, $5 at most), locked.
    ///
    /// Chosen first and deleted by their keys in a second statement: one DELETE that joins the
    /// table with a sub-select of itself is planned as a nested loop while the table's statistics
    /// predate a burst of sign-ins, and then reads the table once for every expired session.
    static let expiredSessions = """
        SELECT id FROM session_service_web_sessions WHERE issuer = $1 AND client_id = $2
        AND (last_used_at < $3 OR created_at < $4) LIMIT $5 FOR UPDATE SKIP LOCKED
        """

    /// Deletes the sessions whose identifiers are in $3 (an array), returning their rows.
    static let deleteSessions = """
        DELETE FROM session_service_web_sessions WHERE issuer = $1 AND client_id = $2 AND id = ANY($3::text[])
        RETURNING id, record, created_at, last_used_at
        """

    /// Deletes the token rows of the accounts in $3 (an array), returning them ($4: the largest
    /// envelope read back).
    static let deleteTokenRows = """
        DELETE FROM session_service_sessions WHERE issuer = $1 AND client_id = $2 AND account = ANY($3::text[])
        RETURNING account, CASE WHEN octet_length(envelope) <= $4 THEN envelope END, octet_length(envelope), version
        """

    /// Notes the logout token `id` until `expiry`; false when any instance noted it already. One
    /// statement on the token's own key, however many tokens are noted: the old ones are the
    /// sweep's to forget (``removeExpired(idleBefore:createdBefore:limit:)``).
    public func noteLogoutToken(_ id: String, until expiry: Date) async throws -> Bool {
        let (issuer, clientID, digest) = (self.issuer, self.clientID, try Self.digest(id))
        return try await database.withConnection("note the logout token") { connection throws(PostgresFailure) in
            try !connection.execute("""
                INSERT INTO session_service_logout_tokens AS seen (issuer, client_id, jti_digest, expires_at) VALUES ($1, $2, $3, $4)
                ON CONFLICT (issuer, client_id, jti_digest) DO UPDATE SET expires_at = EXCLUDED.expires_at
                WHERE seen.expires_at < extract(epoch FROM now())
                RETURNING 1
                """, [issuer, clientID, digest, "\(expiry.timeIntervalSince1970)"]).rows.isEmpty
        }
    }

    /// Deletes the logout tokens whose expiry is more than an hour past (a margin for clocks).
    static let forgetOldLogoutTokens = """
        DELETE FROM session_service_logout_tokens WHERE issuer = $1 AND client_id = $2 AND expires_at < extract(epoch FROM now()) - 3600
        """

    /// Forgets the logout token `id`, on every instance.
    public func forgetLogoutToken(_ id: String) async throws {
        let (issuer, clientID, digest) = (self.issuer, self.clientID, try Self.digest(id))
        try await database.withConnection("forget the logout token") { connection throws(PostgresFailure) in
            _ = try connection.execute("""
                DELETE FROM session_service_logout_tokens WHERE issuer = $1 AND client_id = $2 AND jti_digest = $3
                """, [issuer, clientID, digest])
        }
    }

    // MARK: Rows

    /// The records matching `condition` (on $3), newest first.
    private func select(_ condition: String, _ value: String) async throws -> [WebSessionRecord] {
        let (issuer, clientID) = (self.issuer, self.clientID)
        let rows = try await database.withConnection("list the web sessions") { connection throws(PostgresFailure) in
            try connection.execute("""
                SELECT id, record, created_at, last_used_at FROM session_service_web_sessions
                WHERE issuer = $1 AND client_id = $2 AND \(condition) ORDER BY created_at DESC
                """, [issuer, clientID, value]).rows
        }
        // A row that does not open (not sealed by the service's keys, or for another row) is left out.
        return rows.compactMap { try? open($0) }
    }

    /// Deletes the sessions `choose` names and their token rows in one transaction, and returns
    /// them with the tokens they held.
    private func take(_ what: String, _ choose: @escaping @Sendable (PostgresConnection) throws(PostgresFailure) -> [String])
        async throws -> [RemovedWebSession] {
        let (issuer, clientID) = (self.issuer, self.clientID)
        let taken: [(web: [String?], tokens: [String?]?)] = try await database.withConnection(what) { connection throws(PostgresFailure) in
            _ = try connection.execute("BEGIN")
            do throws(PostgresFailure) {
                let ids = try choose(connection)
                let web = ids.isEmpty ? [] : try connection.execute(Self.deleteSessions, [issuer, clientID, Self.textArray(ids)]).rows
                let accounts = web.compactMap { $0[0] }.map { "web." + $0 }
                let tokenRows = accounts.isEmpty ? [] : try connection.execute(Self.deleteTokenRows, [
                    issuer, clientID, Self.textArray(accounts), "\(PostgresTokenStore.maximumRowSize)",
                ]).rows
                var byAccount: [String: [String?]] = [:]
                for row in tokenRows { if let account = row[0] { byAccount[account] = Array(row.dropFirst()) } }
                let taken = web.map { row in (web: row, tokens: byAccount["web." + (row[0] ?? "")]) }
                _ = try connection.execute("COMMIT")
                return taken
            } catch {
                _ = try? connection.execute("ROLLBACK")
                throw error
            }
        }
        return taken.compactMap { web, tokens in
            guard let record = try? open(web) else { return nil }
            let store = PostgresTokenStore(database: database, configuration: configuration, account: Self.account(record.id), subject: nil)
            return RemovedWebSession(record: record, tokens: StoredRow(tokens).flatMap { try? store.open($0) })
        }
    }

    /// The record a row holds (id, sealed record, created, last used), checked to be that row's.
    /// The creation time, which bounds the session's life, is sealed with the record too: a
    /// `created_at` the service did not write (moved to keep a session alive) fails to open.
    private func open(_ columns: [String?]) throws -> WebSessionRecord {
        let id = WebSessionID(digest: columns[0] ?? "")
        let location = "PostgreSQL web session \(id.digest.prefix(8))"
        let plaintext = try database.seal.open(columns[1] ?? "", for: row(id), location: location)
        guard case .object(let members)? = JSONValue.parse(plaintext),
              let created = columns[2].flatMap(Double.init), created.isFinite, let used = columns[3].flatMap(Double.init), used.isFinite,
              // Rows sealed before the creation time was have only the column to go by.
              members["created"].map({ $0.stringValue.flatMap(Double.init) == created }) ?? true else {
            throw SessionError(.storageCorrupt, process: .configuration, message: "the web session's row is not one this service wrote (\(location))")
        }
        return WebSessionRecord(id: id, subject: members["sub"]?.stringValue, providerSessionID: members["sid"]?.stringValue,
                                createdAt: Date(timeIntervalSince1970: created), lastUsedAt: Date(timeIntervalSince1970: used))
    }

    private func row(_ id: WebSessionID) -> PostgresRowSeal.Row {
        PostgresRowSeal.Row(table: "session_service_web_sessions", columns: [issuer, clientID, id.digest])
    }

    private static func encode(_ record: WebSessionRecord) throws -> Data {
        // As the text the column is written from, so both read back as the same number.
        var members = ["created": "\(record.createdAt.timeIntervalSince1970)"]
        members["sub"] = record.subject
        members["sid"] = record.providerSessionID
        return try JSONSerialization.data(withJSONObject: members, options: [.sortedKeys])
    }

    private static func account(_ id: WebSessionID) -> String { "web." + id.digest }

    /// `values` as a PostgreSQL array literal of text: every element quoted, so no value (a row
    /// someone else wrote, say) can add elements of its own.
    static func textArray(_ values: [String]) -> String {
        "{" + values.map { value in
            "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }.joined(separator: ",") + "}"
    }

    private static func digest(_ value: String) throws -> String {
        try PlatformCrypto.hexDigest(of: value, bytes: 16)
    }
}
#endif
