#if canImport(CLibPQ)
import Foundation
import SessionCore

/// Several accounts' sessions at one provider in PostgreSQL (`AccountStore`): a row
/// each in `session_service_sessions`, its `account` a digest of the subject. Each is a
/// ``PostgresTokenStore`` with every safeguard of one, the fleet-wide refresh lease included: the
/// store for a server that signs many users in.
///
/// ```swift
/// let accounts = AccountSessions(provider: provider, store: PostgresAccountStore(database: database, configuration: configuration))
/// let session = try await accounts.session(for: account)  // on any node
/// ```
public struct PostgresAccountStore: AccountStore {
    /// The database the sessions are in.
    public let database: PostgresDatabase
    private let configuration: SessionConfiguration
    /// Whether the accounts' refreshes take the fleet-wide lease (always, outside tests that show
    /// what happens without it).
    package var takesLease = true
    /// How many rows ``storedSessions()`` reads at a time.
    static let page = 100

    /// The accounts of `configuration`'s issuer and client in `database`.
    public init(database: PostgresDatabase, configuration: SessionConfiguration) {
        self.database = database
        self.configuration = configuration
    }

    /// The `account` column of the session of `subject`.
    public func account(forSubject subject: String) throws -> String {
        try PlatformCrypto.hexDigest(of: subject, bytes: 16)
    }

    /// The row of the account with `subject`: a session read from it must name `subject`.
    public func tokenStore(forSubject subject: String) throws -> TokenStore {
        var store = PostgresTokenStore(database: database, configuration: configuration, account: try account(forSubject: subject), subject: subject)
        store.takesLease = takesLease
        return store
    }

    /// The sessions of this issuer's and client's account rows that open and hold their own
    /// subject's session (a row copied under another account, one not sealed by the service's
    /// keys, or one over the size cap is left out), read a page of rows at a time.
    public func storedSessions() async throws -> [SessionTokens] {
        let (issuer, clientID) = (configuration.issuer.absoluteString, configuration.clientID)
        var sessions: [SessionTokens] = []
        var after = ""
        while true {
            let rows = try await database.withConnection("list the accounts") { [after] connection throws(PostgresFailure) in
                try connection.execute("""
                    SELECT account, CASE WHEN octet_length(envelope) <= $4 THEN envelope END, octet_length(envelope), version
                    FROM session_service_sessions WHERE issuer = $1 AND client_id = $2 AND account > $3 ORDER BY account LIMIT $5
                    """, [issuer, clientID, after, "\(PostgresTokenStore.maximumRowSize)", "\(Self.page)"]).rows
            }
            for row in rows {
                guard let account = row[0] else { continue }
                after = account
                let store = PostgresTokenStore(database: database, configuration: configuration, account: account, subject: nil)
                guard let stored = StoredRow(Array(row.dropFirst())), let tokens = try? store.open(stored), let subject = tokens.subject,
                      Exact.equal(try self.account(forSubject: subject), account) else { continue }
                sessions.append(tokens)
            }
            if rows.count < Self.page { return sessions }
        }
    }
}
#endif
