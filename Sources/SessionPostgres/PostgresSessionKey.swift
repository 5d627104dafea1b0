#if canImport(CLibPQ)
import SessionCore

/// Which row a session is: its issuer, client ID and account (a digest of the subject, or empty
/// for the one session of an issuer and client). Its lease is the row of the same key in
/// `session_service_leases`.
struct PostgresSessionKey: Sendable, Equatable {
    var issuer: String
    var clientID: String
    var account: String

    /// The three columns, as statement parameters $1, $2, $3.
    var parameters: [String?] { [issuer, clientID, account] }

    /// The identity its row's seal is bound to.
    var row: PostgresRowSeal.Row {
        PostgresRowSeal.Row(table: "session_service_sessions", columns: [issuer, clientID, account])
    }
}
#endif
