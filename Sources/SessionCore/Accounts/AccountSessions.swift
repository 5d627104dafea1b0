import Foundation

/// Several accounts signed in at one provider, as an app that lets its user switch between them
/// keeps them: list them, open one as a ``SessionClient``, sign another in, remove one — each
/// without touching the others.
///
/// ```swift
/// let accounts = AccountSessions(provider: provider, store: try FileAccountStore(configuration: configuration))
/// let (work, session) = try await accounts.signIn(agent: LoopbackBrowserAgent())
/// for account in try await accounts.accounts() { print(account.email ?? account.subject) }
/// try await accounts.remove(work)
/// ```
public final class AccountSessions: Sendable {
    /// The provider every account's session is on.
    public let provider: OpenIDProvider
    /// Where the accounts' sessions are kept.
    public let store: AccountStore

    /// The accounts `store` keeps, at `provider`.
    public init(provider: OpenIDProvider, store: AccountStore) {
        self.provider = provider
        self.store = store
    }

    /// The accounts whose sessions are kept, by when they signed in (the latest first; those of
    /// the same second by subject).
    public func accounts() async throws -> [Account] {
        let issuer = provider.configuration.issuer.absoluteString
        return try await store.storedSessions().compactMap { Account(tokens: $0, issuer: issuer) }.sorted { first, second in
            let (one, other) = (first.signedInAt ?? .distantPast, second.signedInAt ?? .distantPast)
            return one != other ? one > other : first.subject < second.subject
        }
    }

    /// The session of `account`, restored from its store, and only if it is that account's: a
    /// session kept where `account`'s belongs that names another subject (copied there by someone
    /// who can write the store) is never handed out as `account`'s.
    /// - Throws: `notAuthenticated` when the account's session is no longer kept;
    ///   `storageCorrupt` when what is kept there is another subject's; the store's errors.
    public func session(for account: Account) async throws -> SessionClient {
        try await session(forSubject: account.subject)
    }

    /// The session of the account with `subject`, restored from its store, as
    /// ``session(for:)`` restores it: for a server whose own session (a cookie) remembers whose it
    /// is, on whichever node the request lands.
    /// - Throws: as ``session(for:)``.
    public func session(forSubject subject: String) async throws -> SessionClient {
        let client = SessionClient(provider: provider, store: try store.tokenStore(forSubject: subject))
        guard let tokens = try await client.loadStoredSession() else { throw SessionError.noSession(.authentication) }
        guard Exact.equal(tokens.subject, subject) else {
            throw SessionError(.storageCorrupt, process: .configuration,
                               message: "the session kept for this account names another subject; it is not used")
        }
        return client
    }

    /// Signs an account in through `agent` (``SessionClient/signIn(scopes:agent:)``) and keeps its
    /// session apart from the others': a new account is added, one already kept gets the new
    /// session. The other accounts are not touched.
    /// - Throws: as ``SessionClient/signIn(scopes:agent:)``; `invalidConfiguration` when `scopes`
    ///   leave out `openid` (without an ID token, no account is named).
    public func signIn(scopes: [String]? = nil, agent: AuthorizationAgent) async throws -> (account: Account, session: SessionClient) {
        if let scopes, !scopes.contains(where: { Exact.equal($0, "openid") }) {
            throw SessionError(.invalidConfiguration, process: .authentication, message: "an account is named by its ID token: ask for openid")
        }
        return try await keep(try await SessionClient(provider: provider).signIn(scopes: scopes, agent: agent))
    }

    /// Keeps `tokens`, a session of this provider signed in some other way (a device sign-in, a
    /// sign-in of the app's own), as its account's: added when new, replacing the account's session
    /// when kept already. The grant of the session it replaces is revoked at the provider, best
    /// effort: nobody holds it any more, and a live refresh token left behind at every re-login is a
    /// grant nobody can end. The other accounts are not touched.
    /// - Throws: `idTokenMissing` when `tokens` name no account (no ID token); the store's errors.
    public func keep(_ tokens: SessionTokens) async throws -> (account: Account, session: SessionClient) {
        guard let account = Account(tokens: tokens, issuer: provider.configuration.issuer.absoluteString) else {
            throw SessionError(.idTokenMissing, process: .authentication, message: "the sign-in named no account: its ID token is missing")
        }
        let kept = try store.tokenStore(forSubject: account.subject)
        let replaced = try? await kept.load()
        try await kept.save(tokens)
        if let replaced, !replaced.holdsSameTokens(as: tokens) {
            try? await TokenRevocation(provider: provider).revoke(replaced)
        }
        let session = SessionClient(provider: provider, store: kept)
        _ = try await session.loadStoredSession()
        return (account, session)
    }

    /// Removes `account`: revokes its tokens first when `revokeTokens` (a failed revocation keeps
    /// it), then deletes its session. The other accounts are not touched.
    public func remove(_ account: Account, revokeTokens: Bool = true) async throws {
        let session = SessionClient(provider: provider, store: try store.tokenStore(forSubject: account.subject))
        try await session.signOut(revokeTokens: revokeTokens)
    }
}
