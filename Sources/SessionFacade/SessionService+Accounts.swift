import SessionCore

/// Several accounts in one service, for a service made with an account store
/// (`SessionService(accountStore:)`): each sign-in adds its account (or renews it) and makes it the
/// current one, the others stay signed in; the operations below list them, switch between them and
/// remove one. Every other operation works on the current account's session. A service made
/// without an account store keeps one session, as netID's and Google's SDKs do; these operations
/// then fail with `invalidConfiguration`.
///
/// `initialize` restores the account signed in most recently; an app that remembers which account
/// its user chose switches to it afterwards.
extension SessionService {
    /// The account whose session the service uses now; nil without one (or in a service of one
    /// session, which names no account).
    public var currentAccount: Account? { state.withLock { $0.currentAccount } }

    /// Lists the accounts kept, the one signed in most recently first.
    /// Outcome: the completion only (listeners hear nothing).
    public func fetchAccounts(completion: @escaping @Sendable (Result<[Account], SessionError>) -> Void) {
        perform(.completionOnly(.accounts), completion) { [self] in
            await withAccounts { try await $0.accounts() }
        }
    }

    /// Makes `account` the current one: its session is restored (refreshed first when its access
    /// token has expired, as `initialize` restores one) and every later operation uses it.
    ///
    /// Outcome: `didFinishAuthentication(accessToken)` of that account, or
    /// `didFinishAuthenticationWithError` (`notAuthenticated` when it is no longer kept,
    /// `reauthenticationRequired` when its refresh was refused: it is then removed); the current
    /// account stays what it was when this fails.
    public func switchAccount(to account: Account, completion: (@Sendable (Result<String, SessionError>) -> Void)? = nil) {
        perform(.accountSwitch, completion) { [self] in
            await withAccounts { accounts in
                let client = SessionClient(provider: accounts.provider, store: try accounts.store.tokenStore(forSubject: account.subject))
                guard let tokens = try await client.restoreUsableSession() else { throw SessionError.noSession(.authentication) }
                await makeCurrent(client, account: account)
                return tokens.accessToken
            }
        }
    }

    /// Removes `account`: revokes its tokens first when `revokeTokens` (a failed revocation keeps
    /// it), then deletes its session. The other accounts are not touched.
    ///
    /// Outcome: for the current account, as ``endSession(revokeTokens:completion:)``'s
    /// (`didEndSession` or `didEndSessionWithError`; no account is current afterwards), without
    /// jumping the queue; for another, the completion only.
    public func removeAccount(_ account: Account, revokeTokens: Bool = true,
                              completion: (@Sendable (Result<Void, SessionError>) -> Void)? = nil) {
        line.enqueue(QueuedOperation(kind: .accounts, run: { [self] () async -> [Delivery] in
            let isCurrent = currentAccount.map { Exact.equal($0.id, account.id) } ?? false
            guard isCurrent else {
                let removed = await withAccounts { try await $0.remove(account, revokeTokens: revokeTokens) }
                return [Outcome<Void>.completionOnly(.accounts).delivery(removed, completion)]
            }
            let result = await withClient(.endSession) { client in
                try await client.signOut(revokeTokens: revokeTokens)
                leaveCurrentAccount(of: client)
            }
            return [Outcome<Void>.endSession.delivery(result, completion)]
        }, fail: { Outcome<Void>.completionOnly(.accounts).delivery(.failure($0), completion) }))
    }

    /// ``fetchAccounts(completion:)``, awaited.
    /// - Throws: the store's `SessionError`; `invalidConfiguration` in a service of one session.
    public func accounts() async throws -> [Account] {
        try await awaiting { fetchAccounts(completion: $0) }
    }

    /// ``switchAccount(to:completion:)``, awaited: the account's access token.
    /// - Throws: as ``switchAccount(to:completion:)`` says.
    @discardableResult
    public func switchAccount(to account: Account) async throws -> String {
        try await awaiting { switchAccount(to: account, completion: $0) }
    }

    /// ``removeAccount(_:revokeTokens:completion:)``, awaited.
    /// - Throws: the revocation's or the store's `SessionError` (the account is then kept).
    public func removeAccount(_ account: Account, revokeTokens: Bool = true) async throws {
        try await awaiting { removeAccount(account, revokeTokens: revokeTokens, completion: $0) }
    }

    // MARK: Inside the operations

    /// Runs a sign-in: on the service's client, or, with several accounts, on a client of its own
    /// whose session is then kept as its account's and becomes the current one.
    func withSignInClient(_ body: @escaping @Sendable (SessionClient) async throws -> SessionTokens) async -> Result<SessionTokens, SessionError> {
        guard let accounts = state.withLock({ $0.accounts }) else { return await withClient(.authentication, body) }
        return await withClient(.authentication) { _ in
            let signedIn = try await body(SessionClient(provider: accounts.provider))
            let (account, client) = try await accounts.keep(signedIn)
            await makeCurrent(client, account: account)
            return signedIn
        }
    }

    /// After `client`'s session ended: no account is current any more (the store no longer keeps it).
    func leaveCurrentAccount(of client: SessionClient) {
        state.withLock { if $0.client === client { $0.currentAccount = nil } }
    }

    /// Makes `client`, the session of `account`, the one every operation uses, its events heard
    /// by the listeners (C15) and the previous one's no longer.
    private func makeCurrent(_ client: SessionClient, account: Account) async {
        await client.setEventHandler { [line] event in line.deliver([Delivery.event(event)]) }
        let previous = state.withLock { state -> SessionClient? in
            defer {
                state.client = client
                state.currentAccount = account
            }
            return state.client
        }
        if let previous, previous !== client { await previous.setEventHandler(nil) }
    }

    /// Runs `body` with the accounts, or fails: `notInitialized` before `initialize`,
    /// `invalidConfiguration` in a service of one session.
    private func withAccounts<T>(_ body: (AccountSessions) async throws -> T) async -> Result<T, SessionError> {
        await withClient(.authentication) { [state] _ in
            guard let accounts = state.withLock({ $0.accounts }) else {
                throw SessionError(.invalidConfiguration, process: .authentication,
                                   message: "this service keeps one session: make it with SessionService(accountStore:) to keep several accounts")
            }
            return try await body(accounts)
        }
    }
}
