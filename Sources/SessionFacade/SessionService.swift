import Dispatch
import Foundation
import SessionCore

/// The legacy-style entry point: a singleton service with listener delegates and completion
/// handlers on a Dispatch queue, on top of ``SessionClient``.
///
/// Every call of ``initialize(_:completion:)``, ``getAuthorization(flow:agent:completion:)``,
/// ``fetchUserInfo(completion:)``, ``fetchPermissions(identifiers:completion:)``,
/// ``updatePermissions(_:identifiers:completion:)`` or ``endSession(revokeTokens:completion:)``
/// is an operation with exactly one outcome, delivered by the callback contract (C1–C14 in the
/// module documentation): on ``callbackQueue``, listeners in registration order then the
/// completion handler, operations one at a time in call order. The service holds no protocol
/// logic and never blocks a thread waiting for async work.
///
/// ```swift
/// let service = SessionService.shared
/// service.registerListener(listener)
/// service.initialize(configuration)
/// service.getAuthorization(flow: .login, agent: LoopbackBrowserAgent())
/// service.fetchUserInfo { result in print(result) }
/// ```
///
/// `@unchecked Sendable`: `queued`, `running`, `client`, `initializationFailure`,
/// `pendingResume` and `urlHandler` are read and written only while holding `lock`; the callback queue, listeners and deliveries
/// have their own locks.
public final class SessionService: @unchecked Sendable {
    /// The service most apps use.
    public static let shared = SessionService()

    private let lock = NSLock()
    private var queued = FIFO<QueuedOperation>()
    private var running: RunningOperation?
    private var client: SessionClient?
    /// Why the last `initialize` failed, named in later `notInitialized` errors.
    private var initializationFailure: SessionError?
    private var pendingResume: PendingResume?
    private var urlHandler: (@Sendable (URL) -> Void)?
    private let queueSetting = CallbackQueueSetting()
    let listeners = ListenerRegistry()
    private let deliveries: DeliveryLine
    private let makeStore: @Sendable (SessionConfiguration) throws -> TokenStore
    private let transport: HTTPTransport
    /// The time source of the service and its client: compat layers judge token times with it.
    public let clock: SessionClock
    private let logger: SessionLogger
    private let defaultAgent: AuthorizationAgent?

    /// Creates a service (``shared`` uses the defaults). Tests and apps that need several
    /// services, another store or another transport make their own.
    /// - Parameters:
    ///   - store: makes the token store for a configuration (default: ``FileTokenStore``).
    ///   - transport: how requests are sent (default: ``URLSessionTransport``).
    ///   - clock: the time source.
    ///   - logger: receives redacted log lines.
    ///   - agent: the agent used when ``getAuthorization(flow:agent:completion:)`` is given none;
    ///     without one, the URL goes to ``authorizationURLHandler`` and the app calls
    ///     ``resumeSession(_:)`` with the redirect.
    public init(store: (@Sendable (SessionConfiguration) throws -> TokenStore)? = nil,
                transport: HTTPTransport = URLSessionTransport(),
                clock: SessionClock = SystemClock(),
                logger: SessionLogger = SilentLogger(),
                agent: AuthorizationAgent? = nil) {
        self.makeStore = store ?? { try FileTokenStore(configuration: $0) }
        self.transport = transport
        self.clock = clock
        self.logger = logger
        self.defaultAgent = agent
        deliveries = DeliveryLine { [queueSetting] in queueSetting.queue }
    }

    /// The queue every listener callback and completion handler runs on (default `.main`).
    /// Deliveries are serial even on a concurrent queue.
    public var callbackQueue: DispatchQueue {
        get { queueSetting.queue }
        set { queueSetting.queue = newValue }
    }

    /// Receives the authorization URL when an authorization runs without an agent; the app
    /// opens it and later passes the redirect to ``resumeSession(_:)``. Called on
    /// ``callbackQueue``.
    public var authorizationURLHandler: (@Sendable (URL) -> Void)? {
        get { lock.withLock { urlHandler } }
        set { lock.withLock { urlHandler = newValue } }
    }

    /// The refresh leeway of the initialized client's configuration; nil before `initialize`.
    var refreshLeeway: TimeInterval? { lock.withLock { client?.configuration.refreshLeeway } }

    // MARK: Listeners

    /// Adds a listener, held weakly; registering the same object twice has no effect.
    public func registerListener(_ listener: SessionServiceDelegate) {
        listeners.register(listener)
    }

    /// Removes a listener; outcomes not yet being delivered no longer reach it.
    public func unregisterListener(_ listener: SessionServiceDelegate) {
        listeners.unregister(listener)
    }

    // MARK: Operations

    /// Loads the provider's metadata, creates the client and restores a stored session.
    ///
    /// Outcome: `didFinishInitializationWithError(nil)` or with the error. With a stored session,
    /// it is followed at once by `didFinishAuthentication(token)` (refreshed first if expired)
    /// or `didFinishAuthenticationWithError` when the session cannot be used (C5). A second call
    /// after a successful one fails with `alreadyInitialized` and changes nothing (C6).
    public func initialize(_ configuration: SessionConfiguration,
                           completion: (@Sendable (Result<Void, SessionError>) -> Void)? = nil) {
        initialize(configuration: { configuration }, completion: completion)
    }

    /// As ``initialize(_:completion:)``, with the configuration built when the operation runs:
    /// an error `configuration` throws is the outcome (`invalidConfiguration` for anything that
    /// is not a ``SessionError``). Compat layers use it to keep a legacy configuration's
    /// validation in call order.
    public func initialize(configuration: @escaping @Sendable () throws -> SessionConfiguration,
                           completion: (@Sendable (Result<Void, SessionError>) -> Void)? = nil) {
        enqueue(.initialize, .configuration, fail: { Outcome.initialization(.failure($0), completion) }) { [self] in
            let built: SessionConfiguration
            do {
                built = try configuration()
            } catch {
                let failure = error as? SessionError
                    ?? SessionError(.invalidConfiguration, process: .configuration, message: "the configuration is not valid")
                lock.withLock { initializationFailure = failure }
                return [Outcome.initialization(.failure(failure), completion)]
            }
            return await runInitialize(built, completion)
        }
    }

    /// Signs in for `flow` through `agent` (or the service's agent, or the external-resume path).
    ///
    /// Outcome: `didFinishAuthentication(accessToken)`, `didCancelAuthentication` when the user
    /// or ``cancelAuthorization()`` cancelled, or `didFinishAuthenticationWithError`.
    public func getAuthorization(flow: AuthFlow = .login, agent: AuthorizationAgent? = nil,
                                 completion: (@Sendable (Result<String, SessionError>) -> Void)? = nil) {
        enqueue(.authorization, .authentication, fail: { Outcome.authentication(.failure($0), completion) }) { [self] in
            [Outcome.authentication(await runAuthorization(flow: flow, agent: agent).map(\.accessToken), completion)]
        }
    }

    /// ``getAuthorization(flow:agent:completion:)`` whose completion gets the session's tokens,
    /// for callers that need more than the access token. Listeners hear the same outcome.
    public func getAuthorization(flow: AuthFlow = .login, agent: AuthorizationAgent? = nil,
                                 tokensCompletion: @escaping @Sendable (Result<SessionTokens, SessionError>) -> Void) {
        enqueue(.authorization, .authentication, fail: { Outcome.authentication(.failure($0), tokensCompletion) }) { [self] in
            [Outcome.authentication(await runAuthorization(flow: flow, agent: agent), tokensCompletion)]
        }
    }

    /// Hands the redirect URL the app received to the authorization waiting for it (C13).
    /// - Returns: true when an authorization waits on the external-resume path and `url`
    ///   addresses its redirect URI; the authorization then completes with it. Otherwise false,
    ///   and nothing changes; a second resume returns false.
    @discardableResult
    public func resumeSession(_ url: URL) -> Bool {
        let waiting = lock.withLock { () -> PendingResume? in
            guard let pending = pendingResume, AuthorizationRequest.isResponse(url, to: pending.redirectURI) else { return nil }
            pendingResume = nil
            return pending
        }
        waiting?.continuation.resume(returning: url)
        return waiting != nil
    }

    /// Cancels the authorization in progress: it reports `didCancelAuthentication(cancelled)`
    /// (C14), unless it had already succeeded. Does nothing when none is in progress.
    /// - Returns: true when an authorization was in progress (its outcome is still to come).
    @discardableResult
    public func cancelAuthorization() -> Bool {
        // The task is cancelled outside the lock: cancellation handlers run synchronously and lock too.
        let (task, waiting) = lock.withLock { () -> (Task<Void, Never>?, PendingResume?) in
            guard var current = running, current.kind == .authorization, !current.ending else { return (nil, nil) }
            current.cancelling = true
            running = current
            defer { pendingResume = nil }
            return (current.task, pendingResume)
        }
        waiting?.continuation.resume(throwing: SessionError(.cancelled, process: .authentication, message: "the authorization was cancelled"))
        task?.cancel()
        return task != nil
    }

    /// Fetches the UserInfo, refreshing the access token first when needed (C8).
    /// Outcome: `didFetchUserInfo` or `didFetchUserInfoWithError`.
    public func fetchUserInfo(completion: (@Sendable (Result<UserInfo, SessionError>) -> Void)? = nil) {
        enqueue(.userInfo, .userInfo, fail: { Outcome.userInfo(.failure($0), completion) }) { [self] in
            [Outcome.userInfo(await withClient(.userInfo) { try await $0.userInfo() }, completion)]
        }
    }

    /// Reads the permissions, asking for `identifiers`.
    /// Outcome: `didFetchPermissions` or `didFetchPermissionsWithError(status, error)`.
    public func fetchPermissions(identifiers: Set<IdentifierOption> = [],
                                 completion: (@Sendable (Result<PermissionReadResponse, SessionError>) -> Void)? = nil) {
        enqueue(.permissionRead, .permissionRead, fail: { Outcome.permissions(.failure($0), completion) }) { [self] in
            [Outcome.permissions(await withClient(.permissionRead) { try await $0.fetchPermissions(identifiers: identifiers) }, completion)]
        }
    }

    /// Writes `update` to the permission center.
    /// Outcome: `didUpdatePermissions` or `didUpdatePermissionsWithError(status, error)`.
    public func updatePermissions(_ update: PermissionUpdate, identifiers: Set<IdentifierOption> = [],
                                  completion: (@Sendable (Result<SubjectIdentifiers, SessionError>) -> Void)? = nil) {
        enqueue(.permissionWrite, .permissionWrite, fail: { Outcome.permissionUpdate(.failure($0), completion) }) { [self] in
            [Outcome.permissionUpdate(await withClient(.permissionWrite) {
                try await $0.updatePermissions(update, identifiers: identifiers)
            }, completion)]
        }
    }

    /// Ends the session, optionally revoking the tokens first. It jumps the queue (C7): the
    /// authorization in progress and every waiting operation report `sessionEnded`, in call
    /// order, then this outcome: `didEndSession` (no token left in memory or store) or
    /// `didEndSessionWithError` (a failed revocation keeps the session). A waiting `initialize`
    /// still runs first, and the service stays initialized.
    public func endSession(revokeTokens: Bool = false, completion: (@Sendable (Result<Void, SessionError>) -> Void)? = nil) {
        let endOperation = QueuedOperation(kind: .endSession, process: .endSession, run: { [self] in
            [Outcome.endSession(await withClient(.endSession) { try await $0.signOut(revokeTokens: revokeTokens) }, completion)]
        }, fail: { Outcome.endSession(.failure($0), completion) })
        // One critical section: no operation called meanwhile can slip between the waiting ones
        // ending and this one taking its place.
        let (task, waiting) = lock.withLock { () -> (Task<Void, Never>?, PendingResume?) in
            // A waiting operation keeps its place and reports `sessionEnded` there, so outcomes stay
            // in call order; an initialize still runs (the service stays initialized).
            queued.update { $0.kind == .initialize || $0.kind == .endSession || $0.kind == .deliveryOnly ? $0 : $0.ended() }
            queued.append(endOperation)
            defer { startNextLocked() }
            guard var current = running, current.kind == .authorization else { return (nil, nil) }
            current.ending = true
            running = current
            defer { pendingResume = nil }
            return (current.task, pendingResume)
        }
        waiting?.continuation.resume(throwing: Self.sessionEnded(.authentication))
        task?.cancel()
    }

    /// Ends the session in its turn (C4): after every operation called before it, which run as
    /// usual, unlike ``endSession(revokeTokens:completion:)``, which jumps the queue (C7). For
    /// legacy APIs whose sign-out is ordered with their other calls. Outcome as `endSession`'s;
    /// the completion gets true when there was a session to end, false when there was none.
    public func endSessionInTurn(revokeTokens: Bool = false, completion: @escaping @Sendable (Result<Bool, SessionError>) -> Void) {
        enqueue(.endSession, .endSession, fail: { Outcome.endSession(.failure($0), completion) }) { [self] in
            [Outcome.endSession(await withClient(.endSession) { client in
                let hadSession = await client.tokens != nil
                try await client.signOut(revokeTokens: revokeTokens)
                return hadSession
            }, completion)]
        }
    }

    // MARK: Running operations

    func enqueue(_ kind: OperationKind, _ process: SessionError.Process, fail: @escaping @Sendable (SessionError) -> Delivery,
                 run: @escaping @Sendable () async -> [Delivery]) {
        lock.withLock {
            queued.append(QueuedOperation(kind: kind, process: process, run: run, fail: fail))
            startNextLocked()
        }
    }

    /// Starts the next operation on a task of its own when none runs. Called while holding `lock`.
    private func startNextLocked() {
        guard let operation = takeNextLocked() else { return }
        running?.task = Task { [self] in await perform(operation) }
    }

    /// Makes the next waiting operation the running one, when none runs. Called while holding `lock`.
    private func takeNextLocked() -> QueuedOperation? {
        guard running == nil, let operation = queued.popFirst() else { return nil }
        running = RunningOperation(kind: operation.kind)
        return operation
    }

    /// Runs `operation`, the running one, hands its outcomes to the delivery line, and goes on
    /// with the operations waiting behind it on the same task, which saves a task and a thread
    /// hop per operation when calls come in faster than they complete. An authorization runs on
    /// a task of its own, the one `cancelAuthorization()` and `endSession` cancel.
    private func perform(_ operation: QueuedOperation) async {
        var current = operation
        while true {
            let outcomes = await current.run()
            let mayContinue = current.kind != .authorization && !Task.isCancelled
            let next = lock.withLock { () -> QueuedOperation? in
                deliveries.enqueue(outcomes.map { $0.block(listeners: listeners) })
                running = nil
                guard mayContinue, queued.first?.kind != .authorization else {
                    startNextLocked()
                    return nil
                }
                return takeNextLocked()
            }
            guard let next else { return }
            current = next
        }
    }

    func withClient<T>(_ process: SessionError.Process, _ body: (SessionClient) async throws -> T) async -> Result<T, SessionError> {
        let (current, failure) = lock.withLock { () -> (SessionClient?, SessionError?) in (client, initializationFailure) }
        guard let client = current else {
            let why = failure.map { "initialize failed (\($0.code.rawValue): \($0.message))" } ?? "call initialize first"
            return .failure(SessionError(.notInitialized, process: process, message: why))
        }
        do {
            return .success(try await body(client))
        } catch {
            return .failure(Self.sessionError(error, process: process))
        }
    }

    private func runInitialize(_ configuration: SessionConfiguration,
                               _ completion: (@Sendable (Result<Void, SessionError>) -> Void)?) async -> [Delivery] {
        guard lock.withLock({ client }) == nil else {
            let error = SessionError(.alreadyInitialized, process: .configuration, message: "the service is already initialized")
            return [Outcome.initialization(.failure(error), completion)]
        }
        let created: SessionClient
        do {
            created = SessionClient(configuration: configuration, store: try makeStore(configuration), transport: transport,
                                    clock: clock, logger: logger)
            _ = try await created.discover()
        } catch {
            let failure = Self.sessionError(error, process: .configuration)
            lock.withLock { initializationFailure = failure }
            return [Outcome.initialization(.failure(failure), completion)]
        }
        lock.withLock {
            client = created
            initializationFailure = nil
        }
        var outcomes = [Outcome.initialization(.success(()), completion)]
        // C5: a stored session is announced right after the initialization outcome.
        do {
            if try await created.restoreSession() != nil {
                outcomes.append(Outcome.authentication(.success(try await created.validTokens()), nil))
            }
        } catch {
            outcomes.append(Outcome.authentication(Result<SessionTokens, SessionError>.failure(Self.sessionError(error, process: .authentication)), nil))
        }
        return outcomes
    }

    private func runAuthorization(flow: AuthFlow, agent: AuthorizationAgent?) async -> Result<SessionTokens, SessionError> {
        let agent = agent ?? defaultAgent ?? externalRedirectAgent
        let result = await withClient(.authentication) { try await $0.signIn(flow: flow, agent: agent) }
        let state = lock.withLock { running }
        if state?.ending == true { return .failure(Self.sessionEnded(.authentication)) }
        if case .failure = result, state?.cancelling == true {
            return .failure(SessionError(.cancelled, process: .authentication, message: "the authorization was cancelled"))
        }
        return result
    }

    // MARK: External resume

    /// The agent of the external-resume path, which an authorization without an agent uses: it
    /// hands the URL to ``authorizationURLHandler`` and waits for ``resumeSession(_:)``. Compat
    /// layers wrap it to see the request an authorization builds.
    public var externalRedirectAgent: AuthorizationAgent { ResumeAgent(service: self) }

    /// Registers the wait for `redirectURI` and shows `url` through the URL handler.
    func awaitRedirect(url: URL, redirectURI: URL) async throws -> URL {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let outcome = lock.withLock { () -> Result<(@Sendable (URL) -> Void), SessionError> in
                    guard let current = running, !current.ending, !current.cancelling else {
                        return .failure(SessionError(.cancelled, process: .authentication, message: "the authorization was cancelled"))
                    }
                    guard let handler = urlHandler else {
                        return .failure(SessionError(.invalidConfiguration, process: .authentication,
                                                     message: "no agent was given and no authorizationURLHandler is set"))
                    }
                    pendingResume = PendingResume(redirectURI: redirectURI, continuation: continuation)
                    return .success(handler)
                }
                switch outcome {
                case .failure(let error): continuation.resume(throwing: error)
                case .success(let handler): deliveries.enqueue([{ handler(url) }])
                }
            }
        } onCancel: {
            let waiting = lock.withLock { () -> PendingResume? in
                defer { pendingResume = nil }
                return pendingResume
            }
            waiting?.continuation.resume(throwing: SessionError(.cancelled, process: .authentication, message: "the authorization was cancelled"))
        }
    }

    // MARK: Errors

    static func sessionEnded(_ process: SessionError.Process) -> SessionError {
        SessionError(.sessionEnded, process: process, message: "endSession was called before this operation finished")
    }

    static func sessionError(_ error: Error, process: SessionError.Process) -> SessionError {
        switch error {
        case let error as SessionError: error
        case is CancellationError: SessionError(.cancelled, process: process, message: "the operation was cancelled")
        default: SessionError(.unexpectedResponse, process: process, message: "failed with \(type(of: error))")
        }
    }
}

/// The external-resume path as an agent: shows the URL through the service and waits for
/// ``SessionService/resumeSession(_:)``.
private struct ResumeAgent: AuthorizationAgent {
    let service: SessionService

    func authorize(url: URL, redirectURI: URL) async throws -> URL {
        try await service.awaitRedirect(url: url, redirectURI: redirectURI)
    }
}
