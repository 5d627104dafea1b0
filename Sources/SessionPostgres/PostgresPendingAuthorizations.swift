#if canImport(CLibPQ)
import Foundation
import SessionCore

/// The sign-ins a fleet began, in PostgreSQL (``SessionCore/PendingAuthorizationStore``), so the
/// callback may land on any node: one row each in `session_service_pending_authorizations`, keyed
/// by a digest of the request's `state`, taken by a `DELETE ... RETURNING` — read and deleted in one
/// statement, so two nodes given the same callback cannot both have it. Rows that expired are
/// swept as new ones are kept.
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

    /// Keeps `record` under `key` until `expiresAt`, and sweeps the rows that expired.
    public func keep(_ record: Data, key: String, expiresAt: Date) async throws {
        let (issuer, clientID) = (self.issuer, self.clientID)
        let text = String(decoding: record, as: UTF8.self)
        try await database.withConnection("keep the pending sign-in") { connection throws(PostgresFailure) in
            _ = try connection.execute("DELETE FROM session_service_pending_authorizations WHERE expires_at < now()")
            _ = try connection.execute("""
                INSERT INTO session_service_pending_authorizations (state_digest, issuer, client_id, request, expires_at)
                VALUES ($1, $2, $3, $4, to_timestamp($5)) ON CONFLICT DO NOTHING
                """, [key, issuer, clientID, text, "\(expiresAt.timeIntervalSince1970)"])
        }
    }

    /// Takes the record of `key` out (deleted in the statement that reads it); nil when there is none.
    public func take(key: String) async throws -> Data? {
        let (issuer, clientID) = (self.issuer, self.clientID)
        let text: String? = try await database.withConnection("take the pending sign-in") { connection throws(PostgresFailure) in
            try connection.execute("""
                DELETE FROM session_service_pending_authorizations WHERE state_digest = $1 AND issuer = $2 AND client_id = $3
                RETURNING request
                """, [key, issuer, clientID]).rows.first?.first ?? nil
        }
        return text.map { Data($0.utf8) }
    }
}
#endif
