import Dispatch
import Foundation
import SessionCore
import SessionPermissions

/// The legacy-style entry point: a singleton service with listener delegates and completion
/// handlers on a Dispatch queue, on top of `SessionClient`.
///
/// Every call of ``initialize(_:permissionCenter:completion:)``, ``getAuthorization(flow:agent:completion:)``,
/// ``fetchUserInfo(completion:)``, ``fetchPermissions(identifiers:completion:)``,
/// ``updatePermissions(_:identifiers:completion:)`` or ``endSession(revokeTokens:completion:)``
/// is an operation with exactly one outcome, delivered by the callback contract (C1–C17 in the
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
public final class SessionService: Sendable {
    /// The service most apps use.
    public static let shared = SessionService()

    /// The client `initialize` made and what came with it.
    let state = Locked(ServiceState())
    let listeners = ListenerRegistry()
    /// Waiting and running operations, and the deliveries on their way to the callback queue.
    let line: OperationLine
    private let queue = Locked(DispatchQueue.main)
    private let urlHandler = Locked<(@Sendable (URL) -> Void)?>(nil)
    let makeStore: @Sendable (SessionConfiguration) throws -> TokenStore
    /// Makes the store of several accounts' sessions, for a service that keeps them (nil: one session).
    let makeAccountStore: (@Sendable (SessionConfiguration) throws -> AccountStore)?
    let transport: HTTPTransport
    /// The time source of the service and its client: compat layers judge token times with it.
    package let clock: SessionClock
    let logger: SessionLogger
    /// The service's own lines (a legacy session carried over), written as the core writes its.
    let log: LogSink
    let defaultAgent: AuthorizationAgent?

    /// Creates a service (``shared`` uses the defaults). Tests and apps that need several
    /// services, another store or another transport make their own.
    /// - Parameters:
    ///   - store: makes the token store for a configuration (default:
    ///     `PlatformDefaults.tokenStore(for:)`: the keychain on Apple platforms, a file elsewhere).
    ///   - accountStore: makes a store of several accounts' sessions for a configuration
    ///     (`PlatformDefaults.accountStore(for:)` is the platform's): the service then keeps
    ///     several accounts, each sign-in adding one (see ``fetchAccounts(completion:)``), and
    ///     `store` is not used. Default nil: one session, as every SDK it replaces kept.
    ///   - transport: how requests are sent (default: `PlatformDefaults.httpTransport()`: libcurl on Linux, `URLSession` on Apple platforms).
    ///   - clock: the time source.
    ///   - logger: receives redacted log lines.
    ///   - agent: the agent used when ``getAuthorization(flow:agent:completion:)`` is given none;
    ///     without one, the URL goes to ``authorizationURLHandler`` and the app calls
    ///     ``resumeSession(_:)`` with the redirect.
    public init(store: (@Sendable (SessionConfiguration) throws -> TokenStore)? = nil,
                accountStore: (@Sendable (SessionConfiguration) throws -> AccountStore)? = nil,
                transport: HTTPTransport = PlatformDefaults.httpTransport(),
                clock: SessionClock = SystemClock(),
                logger: SessionLogger = SilentLogger(),
                agent: AuthorizationAgent? = nil) {
        self.makeStore = store ?? { try PlatformDefaults.tokenStore(for: $0) }
        self.makeAccountStore = accountStore
        self.transport = transport
        self.clock = clock
        self.logger = logger
        self.log = LogSink(logger)
        self.defaultAgent = agent
        line = OperationLine(listeners: listeners) { [queue] in queue.value }
    }

    /// The queue every listener callback and completion handler runs on (default `.main`).
    /// Deliveries are serial even on a concurrent queue.
    public var callbackQueue: DispatchQueue {
        get { queue.value }
        set { queue.value = newValue }
    }

    /// Receives the authorization URL when an authorization runs without an agent; the app
    /// opens it and later passes the redirect to ``resumeSession(_:)``. Called on
    /// ``callbackQueue``.
    public var authorizationURLHandler: (@Sendable (URL) -> Void)? {
        get { urlHandler.value }
        set { urlHandler.value = newValue }
    }

    // MARK: Listeners

    /// Adds a listener, held weakly; registering the same object twice has no effect.
    public func registerListener(_ listener: SessionServiceDelegate) {
        listeners.register(listener)
    }

    /// Removes a listener; outcomes not yet being delivered no longer reach it.
    public func unregisterListener(_ listener: SessionServiceDelegate) {
        listeners.unregister(listener)
    }

    // MARK: External resume

    /// The agent of the external-resume path, which an authorization without an agent uses: it
    /// hands the URL to ``authorizationURLHandler`` and waits for ``resumeSession(_:)``. Compat
    /// layers wrap it to see the request an authorization builds.
    package var externalRedirectAgent: AuthorizationAgent { ResumeAgent(service: self) }

    /// Hands `url` to the URL handler on the callback queue.
    /// - Throws: `invalidConfiguration` when there is none.
    func presentToURLHandler(_ url: URL) throws {
        guard let handler = urlHandler.value else {
            throw SessionError(.invalidConfiguration, process: .authentication,
                               message: "no agent was given and no authorizationURLHandler is set")
        }
        line.deliver([Delivery(notify: { _ in }, complete: { handler(url) })])
    }
}

/// The external-resume path as an agent: shows the URL through the service's URL handler and
/// waits, in the running authorization's handle, for ``SessionService/resumeSession(_:)``.
private struct ResumeAgent: AuthorizationAgent {
    let service: SessionService

    func authorize(url: URL, redirectURI: URL) async throws -> URL {
        guard let authorization = service.runningAuthorization else { throw SessionError.cancelled() }
        return try await authorization.waitForRedirect(to: redirectURI) { try service.presentToURLHandler(url) }
    }
}
