#if canImport(CLibPQ)
import Foundation
import SessionCore

/// Several accounts' sessions at one provider in PostgreSQL (``SessionCore/AccountStore``): a row
/// each in `session_service_sessions`, its `account` a digest of the subject. Each is a
/// ``PostgresTokenStore`` with every safeguard of one, the fleet-wide refresh lease included.
public struct PostgresAccountStore: AccountStore {
    /// The database the sessions are in.
    public let database: PostgresDatabase
    private let configuration: SessionConfiguration
    /// Whether the accounts' refreshes take the fleet-wide lease (always, outside tests that show
    /// what happens without it).
    package var takesLease = true

    /// The accounts of `configuration`'s issuer and client in `database`.
    public init(database: PostgresDatabase, configuration: SessionConfiguration) {
        self.database = database
        self.configuration = configuration
    }

    /// The `account` column of the session of `subject`.
    public func account(forSubject subject: String) throws -> String {
        try PlatformCrypto.hexDigest(of: subject, bytes: 16)
    }

    /// The row of the account with `subject`.
    public func tokenStore(forSubject subject: String) throws -> TokenStore {
        var store = PostgresTokenStore(database: database, configuration: configuration, account: try account(forSubject: subject))
        store.takesLease = takesLease
        return store
    }

    /// The sessions of this issuer's and client's account rows that can be read and hold their own
    /// subject's session (a row copied under another account is left out).
    public func storedSessions() async throws -> [SessionTokens] {
        let (issuer, clientID) = (configuration.issuer.absoluteString, configuration.clientID)
        let rows = try await database.withConnection("list the accounts") { connection throws(PostgresFailure) in
            try connection.execute("""
                SELECT account, envelope FROM session_service_sessions
                WHERE issuer = $1 AND client_id = $2 AND account <> '' ORDER BY account
                """, [issuer, clientID]).rows
        }
        var sessions: [SessionTokens] = []
        for row in rows {
            guard let account = row[0], let envelope = row[1] else { continue }
            let codec = StoredSessionCodec(configuration: configuration, location: "PostgreSQL account \(account.prefix(8))")
            guard let tokens = try? codec.decode(Data(envelope.utf8)), let subject = tokens.subject,
                  Exact.equal(try self.account(forSubject: subject), account) else { continue }
            sessions.append(tokens)
        }
        return sessions
    }
}
#endif
