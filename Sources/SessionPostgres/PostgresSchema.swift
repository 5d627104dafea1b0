#if canImport(CLibPQ)
import SessionCore

/// The tables SessionPostgres keeps, created or migrated by the store itself; the SQL is in the
/// "Running on several servers" article.
enum PostgresSchema {
    /// The schema version this release writes and reads.
    static let version = 1

    /// Any number of processes may start at once: the first to take this transaction-scoped lock
    /// creates the tables, the others find them.
    private static let migrationLock = "SELECT pg_advisory_xact_lock(hashtextextended('session_service.schema', 0))"

    static let statements = [
        """
        CREATE TABLE IF NOT EXISTS session_service_schema (
            singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
            version integer NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS session_service_sessions (
            issuer text NOT NULL,
            client_id text NOT NULL,
            account text NOT NULL,
            envelope text NOT NULL,
            version bigint NOT NULL,
            updated_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (issuer, client_id, account))
        """,
        """
        CREATE TABLE IF NOT EXISTS session_service_pending_authorizations (
            state_digest text PRIMARY KEY,
            issuer text NOT NULL,
            client_id text NOT NULL,
            request text NOT NULL,
            expires_at timestamptz NOT NULL)
        """,
        "CREATE INDEX IF NOT EXISTS session_service_pending_expiry ON session_service_pending_authorizations (expires_at)",
        "INSERT INTO session_service_schema (version) VALUES (1) ON CONFLICT DO NOTHING",
    ]

    /// Creates what is missing and returns the database's schema version (which may be newer than
    /// ``version``: then nothing is changed).
    static func migrate(_ connection: PostgresConnection) throws(PostgresFailure) -> Int {
        _ = try connection.execute("BEGIN")
        do throws(PostgresFailure) {
            _ = try connection.execute(migrationLock)
            for statement in statements { _ = try connection.execute(statement) }
            let found = try connection.execute("SELECT version FROM session_service_schema")
            _ = try connection.execute("COMMIT")
            return found.rows.first?.first.flatMap { $0.flatMap(Int.init) } ?? 0
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
    }
}
#endif
