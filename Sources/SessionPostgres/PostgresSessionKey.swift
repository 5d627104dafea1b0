#if canImport(CLibPQ)
import SessionCore

/// Which row a session is: its issuer, client ID and account (a digest of the subject, or empty
/// for the one session of an issuer and client).
struct PostgresSessionKey: Sendable, Equatable {
    var issuer: String
    var clientID: String
    var account: String

    /// The three columns, as statement parameters $1, $2, $3.
    var parameters: [String?] { [issuer, clientID, account] }

    /// The name the session's advisory lock is hashed from.
    var lockName: String { "session_service.refresh\n\(issuer)\n\(clientID)\n\(account)" }
}
#endif
