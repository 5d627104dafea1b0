#if canImport(CLibPQ)
import Foundation
import SessionCore

/// The sign-ins a fleet began, in PostgreSQL (`PendingAuthorizationStore`), so the
/// callback may land on any node: one row each in `session_service_pending_authorizations`, keyed
/// by a digest of the request's `state`, sealed twice — by the client under the browser's
/// `BrowserBinding`, and here with the database's
/// ``PostgresDatabase/sealingKeys`` and the row's identity — so a role that can read the table
/// learns no verifier and one that can insert into it cannot plant a sign-in.
///
/// A row is taken in one transaction: read with a row lock, opened by the callback's browser
/// binding, and deleted only if it opened, so two nodes given the same callback cannot both have
/// it, and a browser without the binding leaves it for the one that has it. Rows that expired are
/// swept as new ones are kept. Finished sealed sign-ins (``noteFinished(key:expiresAt:)``) are
/// remembered in the same table until they expire.
public struct PostgresPendingAuthorizations: PendingAuthorizationStore {
    /// The database the pending sign-ins are in.
    public let database: PostgresDatabase
    private let issuer: String
    private let clientID: String

    /// The pending sign-ins of `configuration`'s issuer and client in `database`.
    public init(database: PostgresDatabase, configuration: SessionConfiguration) {
        self.database = database
        issuer = configuration.issuer.absoluteString
        clientID = configuration.clientID
    }

    private func row(_ key: String) -> PostgresRowSeal.Row {
        PostgresRowSeal.Row(table: "session_service_pending_authorizations", columns: [issuer, clientID, key])
    }

    private var location: String { "PostgreSQL pending sign-in of \(issuer) (\(clientID))" }

    /// Keeps `record` under `key` until `expiresAt`, sealed, and sweeps the rows that expired.
    public func keep(_ record: Data, key: String, expiresAt: Date) async throws {
        let (issuer, clientID) = (self.issuer, self.clientID)
        let sealed = try database.seal.seal(record, for: row(key))
        try await database.withConnection("keep the pending sign-in") { connection throws(PostgresFailure) in
            _ = try connection.execute("DELETE FROM session_service_pending_authorizations WHERE expires_at < now()")
            _ = try connection.execute("""
                INSERT INTO session_service_pending_authorizations (state_digest, issuer, client_id, request, expires_at)
                VALUES ($1, $2, $3, $4, to_timestamp($5)) ON CONFLICT DO NOTHING
                """, [key, issuer, clientID, sealed, "\(expiresAt.timeIntervalSince1970)"])
        }
    }

    /// Takes the record of `key` out if it opens and `check` accepts it, in one transaction that
    /// holds the row meanwhile; otherwise the row stays. nil when there is none.
    /// - Throws: what `check` throws; `storageCorrupt` for a row the service's keys did not seal
    ///   for this key (it stays, for inspection); `storageFailed`.
    public func take(key: String, checking check: @escaping @Sendable (Data) throws -> Void) async throws -> Data? {
        let (issuer, clientID, seal, row, location) = (self.issuer, self.clientID, database.seal, row(key), location)
        let outcome: Taken = try await database.withConnection("take the pending sign-in") { connection throws(PostgresFailure) in
            _ = try connection.execute("BEGIN")
            do throws(PostgresFailure) {
                let found = try connection.execute("""
                    SELECT CASE WHEN octet_length(request) <= 65536 THEN request END FROM session_service_pending_authorizations
                    WHERE state_digest = $1 AND issuer = $2 AND client_id = $3 AND expires_at >= now() FOR UPDATE
                    """, [key, issuer, clientID]).rows.first
                let outcome: Taken
                switch found {
                case nil:
                    outcome = .none
                case let columns?:
                    do {
                        let record = try seal.open(columns[0] ?? "", for: row, location: location)
                        try check(record)
                        _ = try connection.execute("DELETE FROM session_service_pending_authorizations WHERE state_digest = $1", [key])
                        outcome = .taken(record)
                    } catch {
                        outcome = .refused(error)
                    }
                }
                _ = try connection.execute("COMMIT")
                return outcome
            } catch {
                _ = try? connection.execute("ROLLBACK")
                throw error
            }
        }
        switch outcome {
        case .none: return nil
        case .taken(let record): return record
        case .refused(let error): throw error
        }
    }

    /// Notes `key` as finished until `expiresAt` (a row of its own, replaced once expired);
    /// false when it was noted before, by any node.
    public func noteFinished(key: String, expiresAt: Date) async throws -> Bool {
        let (issuer, clientID) = (self.issuer, self.clientID)
        let digest = "finished." + key
        let marker = try database.seal.seal(Data("finished".utf8), for: row(digest))
        return try await database.withConnection("note the finished sign-in") { connection throws(PostgresFailure) in
            try !connection.execute("""
                INSERT INTO session_service_pending_authorizations AS pending (state_digest, issuer, client_id, request, expires_at)
                VALUES ($1, $2, $3, $4, to_timestamp($5))
                ON CONFLICT (state_digest) DO UPDATE SET request = EXCLUDED.request, expires_at = EXCLUDED.expires_at
                WHERE pending.expires_at < now()
                RETURNING 1
                """, [digest, issuer, clientID, marker, "\(expiresAt.timeIntervalSince1970)"]).rows.isEmpty
        }
    }
}

/// What a transaction taking a pending sign-in found.
private enum Taken: Sendable {
    case none
    case taken(Data)
    case refused(any Error)
}
#endif
