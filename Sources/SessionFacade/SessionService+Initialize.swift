import Foundation
import LegacySessionReaders
import SessionCore
import SessionPermissions

/// `initialize`: the provider's metadata, the client, and the stored session restored.
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

    /// ``initialize(_:permissionCenter:completion:)``, awaited.
    /// - Throws: the initialization's `SessionError`.
    public func initialize(_ configuration: SessionConfiguration, permissionCenter: PermissionCenterEndpoints? = nil) async throws {
        try await awaiting { initialize(configuration, permissionCenter: permissionCenter, completion: $0) }
    }

    // MARK: The operation's body

    /// The body of `initialize`: its outcome, then a restored session's (C5).
    func runInitialize(_ configuration: @Sendable () throws -> SessionConfiguration,
                       _ permissionCenter: PermissionCenterEndpoints?,
                       _ completion: (@Sendable (Result<Void, SessionError>) -> Void)?) async -> [Delivery] {
        func fail(_ error: Error) -> [Delivery] {
            let failure = error as? SessionError
                ?? SessionError(.invalidConfiguration, process: .configuration, message: "the configuration is not valid")
            state.withLock { $0.initializationFailure = failure }
            return [Outcome<Void>.initialization.delivery(.failure(failure), completion)]
        }
        guard state.withLock({ $0.client }) == nil else {
            let error = SessionError(.alreadyInitialized, process: .configuration, message: "the service is already initialized")
            return [Outcome<Void>.initialization.delivery(.failure(error), completion)]
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
        return [Outcome<Void>.initialization.delivery(.success(()), completion)] + restored.announcement
    }
}

extension Outcome where Value == Void {
    /// `didFinishInitializationWithError`, with nil or the error.
    static var initialization: Outcome {
        Outcome(.initialize) { result in
            let error: SessionError? = if case .failure(let error) = result { error } else { nil }
            return { $0.didFinishInitializationWithError(error) }
        }
    }
}

private extension Result where Success == SessionTokens?, Failure == SessionError {
    /// What listeners hear of a restored session (C5): its access token, why it cannot be used,
    /// or nothing when none was stored.
    var announcement: [Delivery] {
        switch self {
        case .success(let tokens?): [Outcome<String>.authentication.delivery(.success(tokens.accessToken), nil)]
        case .success(nil): []
        case .failure(let error): [Outcome<String>.authentication.delivery(.failure(error), nil)]
        }
    }
}
