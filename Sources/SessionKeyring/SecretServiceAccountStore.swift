#if canImport(CLibSecret)
import CLibSecret
import Foundation
import SessionCore

/// Several accounts' sessions at one provider in the desktop keyring (`AccountStore`):
/// one item per account under the schema `org.sessionservice.Account` (attributes `issuer`,
/// `client_id` and `account`, a digest of the subject), labelled
/// "SessionService: <issuer> (<client ID>), account <first digits>". Each item has every safeguard
/// of ``SecretServiceTokenStore``: the envelope's checks, the size cap, the errors that say why
/// (libsecret missing, no Secret Service, a keyring that stayed locked), the refresh lock.
public struct SecretServiceAccountStore: AccountStore {
    private let configuration: SessionConfiguration

    /// The accounts of `configuration`'s issuer and client.
    public init(configuration: SessionConfiguration) {
        self.configuration = configuration
    }

    /// The `account` attribute of the item of `subject`.
    public func account(forSubject subject: String) throws -> String {
        try PlatformCrypto.hexDigest(of: subject, bytes: 16)
    }

    /// The item of the account with `subject`.
    public func tokenStore(forSubject subject: String) throws -> TokenStore {
        SecretServiceTokenStore(configuration: configuration, account: try account(forSubject: subject))
    }

    /// The sessions of this issuer's and client's account items that can be read and hold their
    /// own subject's session (an item copied under another account's attribute is left out).
    /// - Throws: `storageFailed` saying why the keyring cannot be searched.
    public func storedSessions() async throws -> [SessionTokens] {
        let (issuer, clientID) = (configuration.issuer.absoluteString, configuration.clientID)
        let found: [(account: String, secret: String)] = try await SecretServiceTokenStore.call("list the accounts") { failure in
            var accounts: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
            var secrets: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
            var count: Int32 = 0
            let outcome = clibsecret_lookup_accounts(issuer, clientID, &accounts, &secrets, &count, &failure)
            defer {
                for index in 0..<Int(count) {
                    free(accounts?[index])
                    free(secrets?[index])
                }
                free(accounts)
                free(secrets)
            }
            let pairs = (0..<Int(count)).compactMap { index -> (account: String, secret: String)? in
                guard let account = accounts?[index], let secret = secrets?[index] else { return nil }
                return (String(cString: account), String(cString: secret))
            }
            return (outcome, pairs)
        }
        var sessions: [SessionTokens] = []
        for item in found.sorted(by: { $0.account < $1.account }) {
            let store = SecretServiceTokenStore(configuration: configuration, account: item.account)
            guard let tokens = try? store.decode(item.secret), let subject = tokens.subject,
                  Exact.equal(try account(forSubject: subject), item.account) else { continue }
            sessions.append(tokens)
        }
        return sessions
    }
}
#endif
