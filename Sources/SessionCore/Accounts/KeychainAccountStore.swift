import Foundation

/// Several accounts' sessions at one provider in the keychain, a generic-password item each, as
/// ``KeychainTokenStore`` keeps one: service ``KeychainTokenStore/defaultService`` unless told
/// otherwise, account `<issuer>#<client ID>#account-<digest of sub>`. Each item has every
/// safeguard of the one-session store (the envelope's checks, the 1 MiB cap, the locked-keychain
/// error, the refresh lock in ``sharedLockDirectory``).
///
/// Its logic is tested on Linux against a fake keychain with the `SecItem` semantics;
/// `init(configuration:service:accessibility:accessGroup:)`, which uses the real keychain, exists
/// on Apple platforms only and is type-checked, never run.
public struct KeychainAccountStore: AccountStore {
    /// The items' `kSecAttrService`.
    public let service: String
    /// When the items can be read.
    public let accessibility: KeychainAccessibility
    /// The keychain access group shared with other apps of the team, or nil for the app's own.
    public let accessGroup: String?
    /// Where refreshes take their cross-process lock, as ``KeychainTokenStore/sharedLockDirectory``.
    public var sharedLockDirectory: URL?
    private let configuration: SessionConfiguration
    private let items: any KeychainItems

    /// The accounts of `configuration`'s issuer and client in `items`.
    package init(configuration: SessionConfiguration, service: String = KeychainTokenStore.defaultService,
                 accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly, accessGroup: String? = nil,
                 items: any KeychainItems) {
        self.service = service
        self.accessibility = accessibility
        self.accessGroup = accessGroup
        self.configuration = configuration
        self.items = items
    }

    /// The item account of the session of `subject`.
    public func account(forSubject subject: String) throws -> String {
        accountPrefix + (try PlatformCrypto.hexDigest(of: subject, bytes: 16))
    }

    private var accountPrefix: String { KeychainTokenStore.account(for: configuration) + "#account-" }

    /// The item of the account with `subject`.
    public func tokenStore(forSubject subject: String) throws -> TokenStore {
        keychainStore(account: try account(forSubject: subject))
    }

    /// The sessions of this issuer's and client's account items that can be read and hold their
    /// own subject's session (an item copied under another account's name is left out).
    /// - Throws: `storageFailed` when the keychain cannot be searched (a locked keychain says so).
    public func storedSessions() async throws -> [SessionTokens] {
        try await BlockingStoreWork.run { [self] in
            let (status, accounts) = items.accounts(service: service, accessGroup: accessGroup)
            if status == .itemNotFound { return [] }
            if let error = status.failure("cannot list the accounts", location: "keychain items of \(service)") { throw error }
            var sessions: [SessionTokens] = []
            for account in accounts.sorted() where account.hasPrefix(accountPrefix) {
                guard let tokens = try? keychainStore(account: account).loadNow(), let subject = tokens.subject,
                      Exact.equal(try self.account(forSubject: subject), account) else { continue }
                sessions.append(tokens)
            }
            return sessions
        }
    }

    private func keychainStore(account: String) -> KeychainTokenStore {
        var store = KeychainTokenStore(configuration: configuration, account: account, service: service, accessibility: accessibility,
                                       accessGroup: accessGroup, items: items)
        store.sharedLockDirectory = sharedLockDirectory
        return store
    }
}
