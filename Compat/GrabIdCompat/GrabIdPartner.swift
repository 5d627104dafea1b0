import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LegacySessionReaders
import SessionCore
import SessionFacade

/// GrabID's partner object, on top of `SessionService` (one service per login session).
///
/// As GrabID's, `login` ends once the login page is shown and the app hands the redirect to
/// ``exchangeToken(loginSession:url:completion:)`` from its URL handler; here the page's URL goes
/// to ``authorizationURLHandler``. An app without a URL handler (a console tool) sets
/// ``authorizationAgent`` instead, and `login` then ends when the whole sign-in has.
///
/// Every completion is called exactly once, on ``callbackQueue`` (the main queue by default),
/// never inside the call: GrabID's paths that called back synchronously, or never, are not kept.
/// <doc:DifferencesFromGrabID> lists every difference from GrabID.
///
/// The class is not `Sendable`, as GrabID's is not, so that an app's subclass needs no
/// concurrency annotation; its mutable state is kept behind a lock.
open class GrabIdPartner: NSObject, GrabIdPartnerProtocol {
    // nonisolated(unsafe): every stored property is a constant, of a Sendable type or locked.
    nonisolated(unsafe) private static let shared = GrabIdPartner()

    /// The queue completions run on.
    public let callbackQueue: DispatchQueue
    let state = GrabIdPartnerState()
    private let makeService: @Sendable () -> SessionService
    private let bundle: Bundle
    /// The time ID-token information is judged by (the login sessions' services judge access
    /// tokens by their own clock).
    let clock: SessionClock

    /// A partner whose requests go through SessionService's own transport, reading its settings
    /// from `bundle`'s Info.plist (see ``configuration``).
    public init(bundle: Bundle = Bundle.main) {
        callbackQueue = .main
        makeService = { SessionService() }
        self.bundle = bundle
        clock = SystemClock()
        super.init()
    }

    /// A partner whose requests go through `urlSession` (its configuration, protocol classes and
    /// delegate), reading its settings from `bundle`'s Info.plist.
    public init(urlSession: URLSession = .shared, bundle: Bundle = Bundle.main) {
        callbackQueue = .main
        let transport = AppURLSessionTransport(session: urlSession)
        makeService = { SessionService(transport: transport) }
        self.bundle = bundle
        clock = SystemClock()
        super.init()
    }

    /// A partner calling back on `callbackQueue`, whose login sessions each get the SessionService
    /// `makeService` makes (tests, and apps choosing the store or transport), and which judges
    /// ID-token information by `clock` (give it the services' clock).
    public init(callbackQueue: DispatchQueue = .main, clock: SessionClock = SystemClock(),
                makeService: @escaping @Sendable () -> SessionService = { SessionService() }) {
        self.callbackQueue = callbackQueue
        self.makeService = makeService
        self.clock = clock
        bundle = .main
        super.init()
    }

    /// The shared partner.
    public static func sharedInstance() -> GrabIdPartnerProtocol? { shared }

    /// Whether a login session's first use carries over the tokens GrabID's SDK left in the
    /// keychain for its client and scope, when its service finds none of its own
    /// (``GrabIdLegacySession``). An addition; default true. Read when a login session is first used.
    public var carriesOverLegacySession: Bool {
        get { state.withLock { $0.carriesOverLegacySession } }
        set { state.withLock { $0.carriesOverLegacySession = newValue } }
    }

    /// The keychain GrabID's items are read from (tests use one in memory).
    package var legacyKeychain: (any KeychainItems)? {
        get { state.withLock { $0.legacyKeychain } }
        set { state.withLock { $0.legacyKeychain = newValue } }
    }

    /// Shows the login page and brings back the redirect, for apps that cannot receive it through
    /// a URL handler; nil uses ``authorizationURLHandler`` and `exchangeToken`.
    public var authorizationAgent: AuthorizationAgent? {
        get { state.withLock { $0.agent } }
        set { state.withLock { $0.agent = newValue } }
    }

    /// Receives the login page's URL when there is no agent, on the callback queue; the app opens
    /// it (GrabID showed it in a Safari view) and later hands the redirect to `exchangeToken`.
    public var authorizationURLHandler: (@Sendable (URL) -> Void)? {
        get { state.withLock { $0.urlHandler } }
        set { state.withLock { $0.urlHandler = newValue } }
    }

    /// The `GrabIdPartnerSDK` settings `loadLoginSession` reads where there is no Info.plist.
    /// When nil, the file named by the environment variable `GRABID_PARTNER_SDK_CONFIG` (JSON or
    /// property list) is read, then the bundle's Info.plist.
    public var configuration: [String: Any]? {
        get { state.withLock { $0.settings?.plist } }
        set { state.withLock { $0.settings = newValue.map(GrabIdPartnerState.Settings.init(plist:)) } }
    }

    // MARK: Login sessions

    /// Builds a login session from the `GrabIdPartnerSDK` settings (see ``configuration``), checked
    /// as ``createLoginSession(clientId:redirectUrl:scope:request:acrValues:serviceDiscoveryUrl:hint:idTokenHint:prompt:)``
    /// checks them; `invalidConfiguration` when there are none. Domain `loadConfiguration`.
    public func loadLoginSession(completion: @escaping (LoginSession?, GrabIdPartnerError?) -> Void) {
        let (session, error) = Self.settings(explicit: configuration, bundle: bundle).map(LoginSession.validated(from:))
            ?? (nil, GrabIdPartnerError(.invalidConfiguration, .loadConfiguration))
        let result = CallbackQueueBound((completion, session, error))
        callbackQueue.async { result.value.0(result.value.1, result.value.2) }
    }

    /// Creates a login session when the client ID and scope are not empty, the redirect URL is a
    /// URL and a discovery URL is given; otherwise GrabID's error, checked in its order
    /// (`invalidClientId`, `invalidRedirectUrl`, `invalidScope`, else `somethingWentWrong`).
    public func createLoginSession(clientId: String?, redirectUrl: String?, scope: String?, request: String? = nil,
                                   acrValues: [String: String]? = nil, serviceDiscoveryUrl: String?, hint: String = "",
                                   idTokenHint: String = "", prompt: String = "") -> (LoginSession?, GrabIdPartnerError?) {
        LoginSession.validated(clientId: clientId, redirectUrl: redirectUrl, scope: scope, request: request, acrValues: acrValues,
                               serviceDiscoveryUrl: serviceDiscoveryUrl, hint: hint, idTokenHint: idTokenHint, prompt: prompt)
    }

    /// The session's SessionService if one was made for it; nil otherwise (then the session has
    /// no tokens either).
    func existingService(for session: LoginSession) -> SessionService? {
        state.withLock { values in
            values.entries[ObjectIdentifier(session)].flatMap { $0.belongs(to: session) ? $0.service : nil }
        }
    }

    /// The session's SessionService, initialized on first use with the session's settings (which
    /// restores a session stored earlier).
    func entry(for session: LoginSession) -> GrabIdPartnerState.Entry {
        let id = ObjectIdentifier(session)
        let (entry, created) = state.withLock { values -> (GrabIdPartnerState.Entry, Bool) in
            if let existing = values.entries[id], existing.belongs(to: session) { return (existing, false) }
            values.entries = values.entries.filter { entry in entry.value.withLock { $0.session != nil } }
            let entry = GrabIdPartnerState.Entry(service: makeService(), session: session)
            values.entries[id] = entry
            return (entry, true)
        }
        guard created else { return entry }
        let state = state
        entry.service.callbackQueue = callbackQueue
        // On the callback queue: the app's handler shows the page, then the login completes.
        entry.service.authorizationURLHandler = { [weak entry] url in
            state.withLock { $0.urlHandler }?(url)
            entry?.withLock { entryState in
                defer { entryState.pagePresented = nil }
                return entryState.pagePresented
            }?()
        }
        let (carriesOver, keychain) = state.withLock { ($0.carriesOverLegacySession, $0.legacyKeychain) }
        entry.service.carryOverLegacySession(from: carriesOver ? GrabIdLegacySession(
            keychain: keychain, clientID: session.clientId, scope: session.scope, issuer: try? session.configuration().issuer) : nil)
        entry.service.initialize(configuration: { try session.configuration() }) { result in
            if case .failure(let error) = result { entry.withLock { $0.initializationError = error } }
        }
        return entry
    }

    /// Calls `completion` with `error` asynchronously on the callback queue.
    func deliver(_ completion: GrabIdPartnerState.Completion, _ error: GrabIdPartnerError?) {
        callbackQueue.async { completion.value(error) }
    }
}
