import Foundation
import LegacySessionReaders
import SessionCore
import SessionPermissions

/// The operations: each public call is one entry on the operation line, running one core call
/// and delivering one outcome (C2). Read as a table: call, core function, outcome.
extension SessionService {
    /// Loads the provider's metadata, creates the client and restores a stored session.
    ///
    /// Outcome: `didFinishInitializationWithError(nil)` or with the error. With a stored session,
    /// it is followed at once by `didFinishAuthentication(token)` (refreshed first if expired)
    /// or `didFinishAuthenticationWithError` when the session cannot be used (C5). A second call
    /// after a successful one fails with `alreadyInitialized` and changes nothing (C6).
    ///
    /// `permissionCenter` is where ``fetchPermissions(identifiers:completion:)`` and
    /// ``updatePermissions(_:identifiers:completion:)`` go; without it they fail with
    /// `invalidConfiguration`.
    public func initialize(_ configuration: SessionConfiguration, permissionCenter: PermissionCenterEndpoints? = nil,
                           completion: (@Sendable (Result<Void, SessionError>) -> Void)? = nil) {
        initialize(configuration: { configuration }, permissionCenter: permissionCenter, completion: completion)
    }

    /// Signs in for `flow` through `agent` (or the service's agent, or the external-resume path).
    ///
    /// Outcome: `didFinishAuthentication(accessToken)`, `didCancelAuthentication` when the user
    /// or ``cancelAuthorization()`` cancelled, or `didFinishAuthenticationWithError`.
    public func getAuthorization(flow: AuthFlow = .login, agent: AuthorizationAgent? = nil,
                                 completion: (@Sendable (Result<String, SessionError>) -> Void)? = nil) {
        let authorization = AuthorizationSession()
        line.enqueue(QueuedOperation(kind: .authorization, authorization: authorization, outcome: { .authentication($0, completion) }) { [self] in
            await runAuthorization(authorization, flow: flow, agent: agent).map(\.accessToken)
        })
    }

    /// ``getAuthorization(flow:agent:completion:)`` whose completion gets the session's tokens,
    /// for callers that need more than the access token. Listeners hear the same outcome.
    public func getAuthorization(flow: AuthFlow = .login, agent: AuthorizationAgent? = nil,
                                 tokensCompletion: @escaping @Sendable (Result<SessionTokens, SessionError>) -> Void) {
        let authorization = AuthorizationSession()
        line.enqueue(QueuedOperation(kind: .authorization, authorization: authorization, outcome: { .authentication($0, tokensCompletion) }) { [self] in
            await runAuthorization(authorization, flow: flow, agent: agent)
        })
    }

    /// Signs in for `flow` on another device (RFC 8628): the user opens a URL on any device with a
    /// browser and enters a code, while this one polls the provider.
    ///
    /// Outcome: first, once the provider has given the code, `didReceiveDeviceAuthorization`
    /// on the listeners, then `codeHandler` (C16); then, as for
    /// ``getAuthorization(flow:agent:completion:)``, `didFinishAuthentication(accessToken)`,
    /// `didCancelAuthentication` when ``cancelAuthorization()`` cancelled it, or
    /// `didFinishAuthenticationWithError` (`accessDenied`, `expiredToken`, ...). `endSession`
    /// ends it as it ends a browser sign-in.
    public func getDeviceAuthorization(flow: AuthFlow = .login, codeHandler: (@Sendable (DeviceAuthorization) -> Void)? = nil,
                                       completion: (@Sendable (Result<String, SessionError>) -> Void)? = nil) {
        let authorization = AuthorizationSession()
        line.enqueue(QueuedOperation(kind: .authorization, authorization: authorization, outcome: { .authentication($0, completion) }) { [self] in
            await runDeviceAuthorization(authorization, flow: flow, codeHandler: codeHandler).map(\.accessToken)
        })
    }

    /// ``getDeviceAuthorization(flow:codeHandler:completion:)`` whose completion gets the
    /// session's tokens. Listeners hear the same outcome.
    public func getDeviceAuthorization(flow: AuthFlow = .login, codeHandler: (@Sendable (DeviceAuthorization) -> Void)? = nil,
                                       tokensCompletion: @escaping @Sendable (Result<SessionTokens, SessionError>) -> Void) {
        let authorization = AuthorizationSession()
        line.enqueue(QueuedOperation(kind: .authorization, authorization: authorization, outcome: { .authentication($0, tokensCompletion) }) { [self] in
            await runDeviceAuthorization(authorization, flow: flow, codeHandler: codeHandler)
        })
    }

    private func runDeviceAuthorization(_ authorization: AuthorizationSession, flow: AuthFlow,
                                        codeHandler: (@Sendable (DeviceAuthorization) -> Void)?) async -> Result<SessionTokens, SessionError> {
        let announce = announcer(codeHandler)
        let signIn: @Sendable (SessionClient) async throws -> SessionTokens = { client in
            let device = try await client.beginDeviceAuthorization(scopes: flow.scopes(with: client.configuration))
            announce(device)
            return try await client.completeDeviceAuthorization(device)
        }
        return await withSignInClient { client in try await authorization.runOnAttachedTask(on: client, signIn).get() }
    }

    /// Delivers a device sign-in's code to the listeners, then to `codeHandler`, in line with
    /// every other delivery (C16).
    private func announcer(_ codeHandler: (@Sendable (DeviceAuthorization) -> Void)?) -> @Sendable (DeviceAuthorization) -> Void {
        let line = self.line
        return { device in
            var complete: (@Sendable () -> Void)?
            if let codeHandler { complete = { codeHandler(device) } }
            line.deliver([Delivery(notify: { $0.didReceiveDeviceAuthorization(device) }, complete: complete)])
        }
    }

    /// Hands the redirect URL the app received to the authorization waiting for it (C13).
    /// - Returns: true when an authorization waits on the external-resume path and `url`
    ///   addresses its redirect URI; the authorization then completes with it. Otherwise false,
    ///   and nothing changes; a second resume returns false.
    @discardableResult
    public func resumeSession(_ url: URL) -> Bool {
        runningAuthorization?.resume(with: url) ?? false
    }

    /// Cancels the authorization in progress: it reports `didCancelAuthentication(cancelled)`
    /// (C14), unless it had already succeeded. Does nothing when none is in progress.
    /// - Returns: true when an authorization was in progress (its outcome is still to come).
    @discardableResult
    public func cancelAuthorization() -> Bool {
        runningAuthorization?.cancel() ?? false
    }

    /// Fetches the UserInfo, refreshing the access token first when needed (C8).
    /// Outcome: `didFetchUserInfo` or `didFetchUserInfoWithError`.
    public func fetchUserInfo(completion: (@Sendable (Result<UserInfo, SessionError>) -> Void)? = nil) {
        line.enqueue(QueuedOperation(kind: .userInfo, outcome: { .userInfo($0, completion) }) { [self] in
            await withClient(.userInfo) { try await $0.userInfo() }
        })
    }

    /// Reads the permissions, asking for `identifiers`.
    /// Outcome: `didFetchPermissions` or `didFetchPermissionsWithError(status, error)`.
    public func fetchPermissions(identifiers: Set<IdentifierOption> = [],
                                 completion: (@Sendable (Result<PermissionReadResponse, SessionError>) -> Void)? = nil) {
        line.enqueue(QueuedOperation(kind: .permissionRead, outcome: { .permissions($0, completion) }) { [self] in
            await withPermissionCenter(.permissionRead) { try await $0.fetchPermissions(identifiers: identifiers) }
        })
    }

    /// Writes `update` to the permission center.
    /// Outcome: `didUpdatePermissions` or `didUpdatePermissionsWithError(status, error)`.
    public func updatePermissions(_ update: PermissionUpdate, identifiers: Set<IdentifierOption> = [],
                                  completion: (@Sendable (Result<SubjectIdentifiers, SessionError>) -> Void)? = nil) {
        line.enqueue(QueuedOperation(kind: .permissionWrite, outcome: { .permissionUpdate($0, completion) }) { [self] in
            await withPermissionCenter(.permissionWrite) { try await $0.updatePermissions(update, identifiers: identifiers) }
        })
    }

    /// Ends the session, optionally revoking the tokens first. It jumps the queue (C7): the
    /// authorization in progress and every waiting operation report `sessionEnded`, in call
    /// order, then this outcome: `didEndSession` (no token left in memory or store) or
    /// `didEndSessionWithError` (a failed revocation keeps the session). A waiting `initialize`
    /// still runs first, and the service stays initialized.
    public func endSession(revokeTokens: Bool = false, completion: (@Sendable (Result<Void, SessionError>) -> Void)? = nil) {
        end(with: QueuedOperation(kind: .endSession, outcome: { .endSession($0, completion) }) { [self] in
            await withClient(.endSession) { client in
                try await client.signOut(revokeTokens: revokeTokens)
                leaveCurrentAccount(of: client)
            }
        })
    }

    /// Ends the session as ``endSession(revokeTokens:completion:)`` does, then the user's
    /// session at the provider too: `agent` shows its sign-out page (OpenID Connect RP-Initiated
    /// Logout; see `SessionClient.signOut(revokeTokens:endingProviderSessionWith:)`).
    ///
    /// Outcome (C17): `didEndSession` once the session here has ended; when the provider's page
    /// then fails or is cancelled, listeners also hear `didFailToEndProviderSession(error)` and
    /// the completion gets that `providerSignOutIncomplete` error. A provider without an
    /// end-session endpoint is `didEndSessionWithError(unsupportedProviderFeature)`, with
    /// nothing cleared.
    public func endSession(revokeTokens: Bool = false, endingProviderSessionWith agent: AuthorizationAgent,
                           completion: (@Sendable (Result<Void, SessionError>) -> Void)? = nil) {
        end(with: QueuedOperation(kind: .endSession, run: { [self] () async -> [Delivery] in
            let result = await withClient(.endSession) { client in
                do {
                    try await client.signOut(revokeTokens: revokeTokens, endingProviderSessionWith: agent)
                } catch let error as SessionError where error.code == .providerSignOutIncomplete {
                    // The session here has ended all the same.
                    leaveCurrentAccount(of: client)
                    throw error
                }
                leaveCurrentAccount(of: client)
            }
            guard case .failure(let error) = result, error.code == .providerSignOutIncomplete else { return [.endSession(result, completion)] }
            // The session here has ended: said first, then what the provider's step did.
            return [.endSession(Result<Void, SessionError>.success(()), nil), .providerSignOutFailed(error, completion)]
        }, fail: { .endSession(.failure($0), completion) }))
    }

    /// Puts `endOperation` on the line in `endSession`'s way (C7).
    private func end(with endOperation: QueuedOperation) {
        line.jump(with: endOperation)?.end(with: Self.sessionEnded(.authentication))
    }

    // MARK: Operation bodies

    func runInitialize(_ configuration: @Sendable () throws -> SessionConfiguration,
                               _ permissionCenter: PermissionCenterEndpoints?,
                               _ completion: (@Sendable (Result<Void, SessionError>) -> Void)?) async -> [Delivery] {
        func fail(_ error: Error) -> [Delivery] {
            let failure = error as? SessionError
                ?? SessionError(.invalidConfiguration, process: .configuration, message: "the configuration is not valid")
            state.withLock { $0.initializationFailure = failure }
            return [.initialization(.failure(failure), completion)]
        }
        guard state.withLock({ $0.client }) == nil else {
            return [.initialization(.failure(SessionError(.alreadyInitialized, process: .configuration,
                                                          message: "the service is already initialized")), completion)]
        }
        let built: SessionConfiguration
        var created: SessionClient
        var accounts: AccountSessions?
        var current: Account?
        do {
            built = try configuration()
        } catch {
            return fail(error)
        }
        do {
            if let makeAccountStore {
                let provider = OpenIDProvider(configuration: built, transport: transport, clock: clock, logger: logger)
                let kept = AccountSessions(provider: provider, store: try makeAccountStore(built))
                // The account signed in most recently is the one restored.
                current = try await kept.accounts().first
                created = SessionClient(provider: provider, store: try current.map { try kept.store.tokenStore(forSubject: $0.subject) } ?? InMemoryTokenStore())
                accounts = kept
            } else {
                created = SessionClient(configuration: built, store: try makeStore(built), transport: transport, clock: clock, logger: logger)
            }
            _ = try await created.discover()
        } catch {
            return fail(Self.sessionError(error, process: .configuration))
        }
        state.withLock {
            $0.client = created
            $0.accounts = accounts
            $0.currentAccount = current
            $0.permissionCenter = permissionCenter
            $0.initializationFailure = nil
        }
        // C5: a stored session is announced right after the initialization outcome; one that was
        // lost on the way (an interrupted refresh) is a stored session that cannot be used.
        let lost = Locked<SessionError?>(nil)
        await created.setEventHandler { event in
            if case .sessionLost(let error) = event { lost.withLock { $0 = error } }
        }
        var restored: Result<SessionTokens?, SessionError>
        do {
            restored = .success(try await created.restoreUsableSession())
        } catch {
            restored = .failure(Self.sessionError(error, process: .authentication))
        }
        if case .success(nil) = restored, let error = lost.value {
            restored = .failure(error)
        }
        if case .success(nil) = restored, let source = state.withLock({ $0.legacySessionSource }) {
            restored = await adoptLegacySession(from: source, into: created)
            // With several accounts, the session carried over is kept as its account's.
            if let accounts, case .success(let tokens?) = restored {
                do {
                    let (account, client) = try await accounts.keep(tokens)
                    created = client
                    state.withLock {
                        $0.client = client
                        $0.currentAccount = account
                    }
                } catch {
                    restored = .failure(Self.sessionError(error, process: .authentication))
                }
            }
        }
        // C15, from here on (the restore's own outcome says what became of a stored session):
        // events are heard as they happen, so before the outcome of the operation that caused them.
        await created.setEventHandler { [line] event in
            line.deliver([Delivery.event(event)])
        }
        return [.initialization(.success(()), completion)] + restored.announcement
    }

    private func runAuthorization(_ authorization: AuthorizationSession, flow: AuthFlow,
                                  agent: AuthorizationAgent?) async -> Result<SessionTokens, SessionError> {
        let agent = agent ?? defaultAgent ?? externalRedirectAgent
        return await withSignInClient { client in
            try await authorization.runOnAttachedTask(on: client, scopes: flow.scopes(with: client.configuration), agent: agent).get()
        }
    }

    /// The handle of the authorization that runs now, if one does.
    var runningAuthorization: AuthorizationSession? { line.runningAuthorization }
}

private extension Result where Success == SessionTokens?, Failure == SessionError {
    /// What listeners hear of a restored session (C5): its access token, why it cannot be used,
    /// or nothing when none was stored.
    var announcement: [Delivery] {
        switch self {
        case .success(let tokens?): [.authentication(.success(tokens.accessToken), nil)]
        case .success(nil): []
        case .failure(let error): [.authentication(Result<String, SessionError>.failure(error), nil)]
        }
    }
}
