#if canImport(CLibPQ)
import Foundation
import SessionCore

/// The tables SessionPostgres keeps, created or migrated by the store itself; the SQL is in the
/// "Running on several servers" article.
///
/// No lock anyone else can take stands in the way: a node that finds the current version reads
/// it and goes on; one that must create or migrate does it in a transaction that first locks the
/// version table in EXCLUSIVE mode, which only a role with write rights on that table can take
/// (an advisory lock could be taken by any role that can connect, and held to stop every node).
enum PostgresSchema {
    /// The schema version this release writes and reads: 2 seals every row and keeps the
    /// refresh leases in a table; 3 adds the web sessions and the logout tokens seen.
    static let version = 3

    static let sessions = """
        CREATE TABLE IF NOT EXISTS session_service_sessions (
            issuer text NOT NULL,
            client_id text NOT NULL,
            account text NOT NULL,
            envelope text NOT NULL,
            version bigint NOT NULL,
            updated_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (issuer, client_id, account))
        """
    static let pending = """
        CREATE TABLE IF NOT EXISTS session_service_pending_authorizations (
            state_digest text PRIMARY KEY,
            issuer text NOT NULL,
            client_id text NOT NULL,
            request text NOT NULL,
            expires_at timestamptz NOT NULL)
        """
    static let pendingExpiry = "CREATE INDEX IF NOT EXISTS session_service_pending_expiry ON session_service_pending_authorizations (expires_at)"
    static let leases = """
        CREATE TABLE IF NOT EXISTS session_service_leases (
            issuer text NOT NULL,
            client_id text NOT NULL,
            account text NOT NULL,
            holder text NOT NULL,
            expires_at timestamptz NOT NULL,
            PRIMARY KEY (issuer, client_id, account))
        """
    static let webSessions = """
        CREATE TABLE IF NOT EXISTS session_service_web_sessions (
            issuer text NOT NULL,
            client_id text NOT NULL,
            id text NOT NULL,
            subject_digest text,
            sid_digest text,
            record text NOT NULL,
            created_at double precision NOT NULL,
            last_used_at double precision NOT NULL,
            PRIMARY KEY (issuer, client_id, id))
        """
    static let webSessionIndexes = [
        "CREATE INDEX IF NOT EXISTS session_service_web_subject ON session_service_web_sessions (issuer, client_id, subject_digest)",
        "CREATE INDEX IF NOT EXISTS session_service_web_sid ON session_service_web_sessions (issuer, client_id, sid_digest)",
        "CREATE INDEX IF NOT EXISTS session_service_web_used ON session_service_web_sessions (issuer, client_id, last_used_at)",
        "CREATE INDEX IF NOT EXISTS session_service_web_created ON session_service_web_sessions (issuer, client_id, created_at)",
    ]
    static let logoutTokens = """
        CREATE TABLE IF NOT EXISTS session_service_logout_tokens (
            issuer text NOT NULL,
            client_id text NOT NULL,
            jti_digest text NOT NULL,
            expires_at double precision NOT NULL,
            PRIMARY KEY (issuer, client_id, jti_digest))
        """

    /// Creates what is missing, or migrates an older schema, and returns the database's schema
    /// version (which may be newer than ``version``: then nothing is changed). Any number of
    /// processes may do it at once.
    static func migrate(_ connection: PostgresConnection, seal: PostgresRowSeal) throws(PostgresFailure) -> Int {
        if let found = try? currentVersion(connection), found >= version { return found }
        var attempt = 0
        while true {
            attempt += 1
            do throws(PostgresFailure) {
                return try migrateInTransaction(connection, seal: seal)
            } catch where attempt < 3 && error.isConcurrentCreation {
                // Two nodes created the same table at once: the loser's transaction is rolled back,
                // and it finds the winner's tables on the next try.
                continue
            }
        }
    }

    private static func currentVersion(_ connection: PostgresConnection) throws(PostgresFailure) -> Int? {
        try connection.execute("SELECT version FROM session_service_schema").rows.first?.first.flatMap { $0.flatMap(Int.init) }
    }

    private static func migrateInTransaction(_ connection: PostgresConnection, seal: PostgresRowSeal) throws(PostgresFailure) -> Int {
        _ = try connection.execute("BEGIN")
        do throws(PostgresFailure) {
            _ = try connection.execute("""
                CREATE TABLE IF NOT EXISTS session_service_schema (
                    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
                    version integer NOT NULL)
                """)
            _ = try connection.execute("LOCK TABLE session_service_schema IN EXCLUSIVE MODE")
            let found = try currentVersion(connection)
            switch found {
            case nil:
                for statement in [sessions, pending, pendingExpiry, leases, webSessions, logoutTokens] + webSessionIndexes {
                    _ = try connection.execute(statement)
                }
                _ = try connection.execute("INSERT INTO session_service_schema (version) VALUES ($1)", ["\(version)"])
            case 1?:
                try migrateFromVersion1(connection, seal: seal)
                try migrateFromVersion2(connection)
            case 2?:
                try migrateFromVersion2(connection)
            default:
                break
            }
            _ = try connection.execute("COMMIT")
            return found.map { max($0, version) } ?? version
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
    }

    /// Version 1 kept rows in the clear and leased with advisory locks: its sessions are sealed
    /// where they are, so nobody is signed out; its pending sign-ins, which no browser binding
    /// protects, are dropped (a sign-in in progress starts again).
    private static func migrateFromVersion1(_ connection: PostgresConnection, seal: PostgresRowSeal) throws(PostgresFailure) {
        _ = try connection.execute(leases)
        _ = try connection.execute("DELETE FROM session_service_pending_authorizations")
        let rows = try connection.execute("""
            SELECT issuer, client_id, account, envelope FROM session_service_sessions WHERE envelope NOT LIKE 's1.%' FOR UPDATE
            """).rows
        for row in rows {
            guard let issuer = row[0], let clientID = row[1], let account = row[2], let envelope = row[3] else { continue }
            let key = PostgresSessionKey(issuer: issuer, clientID: clientID, account: account)
            guard let sealed = try? seal.seal(Data(envelope.utf8), for: key.row) else {
                throw PostgresFailure(.statement, "a session could not be sealed while migrating the schema")
            }
            _ = try connection.execute("""
                UPDATE session_service_sessions SET envelope = $4, version = version + 1
                WHERE issuer = $1 AND client_id = $2 AND account = $3
                """, key.parameters + [sealed])
        }
    }

    /// Version 2 had no web sessions: their tables are added.
    private static func migrateFromVersion2(_ connection: PostgresConnection) throws(PostgresFailure) {
        for statement in [webSessions, logoutTokens] + webSessionIndexes { _ = try connection.execute(statement) }
        _ = try connection.execute("UPDATE session_service_schema SET version = $1", ["\(version)"])
    }
}

extension PostgresFailure {
    /// A unique violation or a duplicate table from two transactions creating the same table.
    var isConcurrentCreation: Bool { state == "23505" || state == "42P07" || state == "42710" }
}
#endif
