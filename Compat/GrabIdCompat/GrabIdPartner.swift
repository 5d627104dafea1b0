import Dispatch
import Foundation
import SessionCore
import SessionFacade

/// GrabID's partner object, on top of ``SessionService`` (one service per login session).
///
/// Every completion is called exactly once, on ``callbackQueue`` (the main queue by default),
/// never synchronously inside the call — GrabID's paths that never called back, or called back
/// synchronously, are not kept. The login page is shown by ``authorizationAgent``; without one,
/// the URL goes to ``authorizationURLHandler`` and the app hands the redirect to
/// ``exchangeToken(loginSession:url:completion:)``, as with GrabID.
///
/// `@unchecked Sendable`: `services`, `agent`, `urlHandler` and `settings` are read and written
/// only while holding `lock`.
public final class GrabIdPartner: GrabIdPartnerProtocol, @unchecked Sendable {
    private static let shared = GrabIdPartner()

    /// The queue completions run on.
    public let callbackQueue: DispatchQueue
    private let makeService: @Sendable () -> SessionService
    private let lock = NSLock()
    private var services: [ObjectIdentifier: Entry] = [:]
    private var agent: AuthorizationAgent?
    private var urlHandler: (@Sendable (URL) -> Void)?
    private var settings: [String: Any]?

    /// One login session's service, and an `exchangeToken` completion waiting for its login.
    private final class Entry: @unchecked Sendable {
        // @unchecked Sendable: `pendingExchange` is read and written only while holding the partner's lock.
        let service: SessionService
        weak var session: LoginSession?
        var pendingExchange: Callback<(GrabIdPartnerError?) -> Void>?
        /// Why the service could not be initialized, reported instead of `notInitialized`.
        var initializationError: SessionError?

        init(service: SessionService, session: LoginSession) {
            self.service = service
            self.session = session
        }
    }

    /// Creates a partner. `makeService` makes the SessionService of each login session
    /// (default: a file store, the default transport).
    public init(callbackQueue: DispatchQueue = .main, makeService: @escaping @Sendable () -> SessionService = { SessionService() }) {
        self.callbackQueue = callbackQueue
        self.makeService = makeService
    }

    /// The shared partner.
    public static func sharedInstance() -> GrabIdPartnerProtocol? { shared }

    /// Shows the login page; nil uses the external path (``authorizationURLHandler`` and
    /// ``exchangeToken(loginSession:url:completion:)``).
    public var authorizationAgent: AuthorizationAgent? {
        get { lock.withLock { agent } }
        set { lock.withLock { agent = newValue } }
    }

    /// Receives the login URL when there is no agent.
    public var authorizationURLHandler: (@Sendable (URL) -> Void)? {
        get { lock.withLock { urlHandler } }
        set { lock.withLock { urlHandler = newValue } }
    }

    /// The `GrabIdPartnerSDK` settings `loadLoginSession` reads, where there is no Info.plist:
    /// keys ClientId, RedirectUrl, Scope, ServiceDiscoveryUrl, and optionally Request,
    /// AcrValues, Hint, IdTokenHint, Prompt. When nil, the file named by the environment
    /// variable `GRABID_PARTNER_SDK_CONFIG` (JSON or property list) is read, then Info.plist.
    public var configuration: [String: Any]? {
        get { lock.withLock { settings } }
        set { lock.withLock { settings = newValue } }
    }

    // MARK: Sessions

    /// Builds a login session from ``configuration``, the configuration file or Info.plist, checked
    /// in GrabID's order; the completion gets the session or a `loadConfiguration` error.
    public func loadLoginSession(completion: @escaping (LoginSession?, GrabIdPartnerError?) -> Void) {
        let (session, error) = GrabIdConfiguration.load(explicit: configuration).map(GrabIdConfiguration.session(from:))
            ?? (nil, GrabIdPartnerError(.invalidConfiguration, .loadConfiguration, "no GrabIdPartnerSDK settings were found"))
        deliver(Callback(completion)) { $0(session, error) }
    }

    /// Creates and checks a login session: client ID, redirect URL, scope, then discovery URL.
    public func createLoginSession(clientId: String?, redirectUrl: String?, scope: String?, request: String? = nil,
                                   acrValues: [String: String]? = nil, serviceDiscoveryUrl: String?, hint: String = "",
                                   idTokenHint: String = "", prompt: String = "") -> (LoginSession?, GrabIdPartnerError?) {
        GrabIdConfiguration.session(clientId: clientId, redirectUrl: redirectUrl, scope: scope, request: request, acrValues: acrValues,
                                    serviceDiscoveryUrl: serviceDiscoveryUrl, hint: hint, idTokenHint: idTokenHint, prompt: prompt)
    }

    /// The session's service, initialized on first use with the session's settings.
    private func entry(for session: LoginSession) -> Entry {
        let id = ObjectIdentifier(session)
        let (entry, created) = lock.withLock { () -> (Entry, Bool) in
            if let existing = services[id], existing.session === session { return (existing, false) }
            services = services.filter { $0.value.session != nil }
            let service = makeService()
            service.callbackQueue = callbackQueue
            service.authorizationURLHandler = { [weak self] url in self?.authorizationURLHandler?(url) }
            let entry = Entry(service: service, session: session)
            services[id] = entry
            return (entry, true)
        }
        if created {
            entry.service.initialize(configuration: { try session.configuration() }) { [lock] result in
                if case .failure(let error) = result { lock.withLock { entry.initializationError = error } }
            }
        }
        return entry
    }

    // MARK: Login

    /// Signs in: at once (no UI) when the stored session is still usable, refreshing it if
    /// needed, else through ``authorizationAgent`` or the external path. The completion gets nil
    /// or an `authorization` error.
    public func login(loginSession: LoginSession, presentingViewController: GrabIdPresentationAnchor,
                      completion: @escaping (GrabIdPartnerError?) -> Void) {
        let done = Callback(completion)
        let entry = entry(for: loginSession)
        let agent = authorizationAgent
        // A stored session that is still usable (refreshed if it must be) signs in without UI.
        entry.service.currentTokens { [self] stored in
            switch stored {
            case .success(let tokens):
                loginSession.adopt(tokens)
                return finishLogin(entry, done, nil)
            case .failure(let error) where error.code != .notAuthenticated && error.code != .reauthenticationRequired:
                return finishLogin(entry, done, error)
            case .failure:
                break
            }
            entry.service.getAuthorization(flow: .login, agent: agent) { [self] result in
                switch result {
                case .failure(let error):
                    finishLogin(entry, done, error)
                case .success:
                    entry.service.currentTokens { [self] tokens in
                        loginSession.adopt(try? tokens.get())
                        finishLogin(entry, done, nil)
                    }
                }
            }
        }
    }

    /// Reports a login's end: first to a waiting `exchangeToken`, then to `login`. Called on
    /// the callback queue.
    private func finishLogin(_ entry: Entry, _ done: Callback<(GrabIdPartnerError?) -> Void>, _ reported: SessionError?) {
        let (exchange, error) = lock.withLock { () -> (Callback<(GrabIdPartnerError?) -> Void>?, SessionError?) in
            defer { entry.pendingExchange = nil }
            let error = reported?.code == .notInitialized ? entry.initializationError ?? reported : reported
            return (entry.pendingExchange, error)
        }
        exchange?.body(error.map { GrabIdPartnerError($0, domain: .exchangeToken) })
        done.body(error.map { GrabIdPartnerError($0, domain: .authorization) })
    }

    /// Hands the redirect to the login in progress. The completion gets nil when the login
    /// succeeded, `securityValidationFailed` for a URL that is not that login's redirect or that
    /// carries an error or another `state`.
    public func exchangeToken(loginSession: LoginSession, url: URL, completion: @escaping (GrabIdPartnerError?) -> Void) {
        let done = Callback(completion)
        // Registered before resuming, so the login's end finds it.
        let entry = lock.withLock { () -> Entry? in
            guard let entry = services[ObjectIdentifier(loginSession)], entry.session === loginSession,
                  entry.pendingExchange == nil else { return nil }
            entry.pendingExchange = done
            return entry
        }
        guard let entry, entry.service.resumeSession(url) else {
            if let entry { lock.withLock { entry.pendingExchange = nil } }
            let error = GrabIdPartnerError(.securityValidationFailed, .exchangeToken, "the URL is not the redirect of a login in progress")
            return deliver(done) { $0(error) }
        }
    }

    /// The claims of the session's ID token (validated at sign-in), or `invalidIdToken`.
    public func getIdTokenInfo(loginSession: LoginSession, completion: @escaping (IdTokenInfo?, GrabIdPartnerError?) -> Void) {
        let result: (IdTokenInfo?, GrabIdPartnerError?)
        if let raw = loginSession.idToken, let token = try? IDToken(raw) {
            result = (IdTokenInfo(token), nil)
        } else {
            result = (nil, GrabIdPartnerError(.invalidIdToken, .getIdTokenInfo, "the session has no ID token"))
        }
        deliver(Callback(completion)) { $0(result.0, result.1) }
    }

    /// There is no login UI to close: returns true.
    public func loginCompleted(loginSession: LoginSession) -> Bool { true }

    /// There is no login UI to close: calls `completion` on the callback queue and returns true.
    public func loginCompleted(loginSession: LoginSession, completion: (() -> Void)?) -> Bool {
        if let completion { deliver(Callback(completion)) { $0() } }
        return true
    }

    /// Clears the session locally (no revocation, as in GrabID); `logoutFailed` when there is none.
    public func logout(loginSession: LoginSession, completion: ((GrabIdPartnerError?) -> Void)?) {
        let done = Callback(completion ?? { _ in })
        let entry = lock.withLock { services[ObjectIdentifier(loginSession)] }
        guard let entry, entry.session === loginSession, loginSession.accessToken != nil else {
            let error = GrabIdPartnerError(.logoutFailed, .logout, "there is no session to log out of")
            return deliver(done) { $0(error) }
        }
        entry.service.endSession(revokeTokens: false) { result in
            if case .success = result { loginSession.adopt(nil) }
            if case .failure(let error) = result { return done.body(GrabIdPartnerError(error, domain: .logout)) }
            done.body(nil)
        }
    }

    /// True when the session has an access token that has not expired.
    public func isValidAccessToken(loginSession: LoginSession) -> Bool {
        guard loginSession.accessToken != nil else { return false }
        return (loginSession.accessTokenExpiresAt ?? .distantFuture) > Date()
    }

    /// True when now lies between the token's `nbf` (if any) and `exp`.
    public func isValidIdToken(idTokenInfo: IdTokenInfo) -> Bool {
        let now = Date()
        guard let expiration = idTokenInfo.expiration, expiration > now else { return false }
        return (idTokenInfo.notValidBefore ?? .distantPast) <= now
    }

    /// Calls `callback` asynchronously on the callback queue.
    private func deliver<T>(_ callback: Callback<T>, _ call: @escaping @Sendable (T) -> Void) {
        callbackQueue.async { call(callback.body) }
    }
}

/// A legacy completion handler, which is not `Sendable`, carried to the callback queue.
///
/// `@unchecked Sendable`: the closure is called only on the callback queue, once.
struct Callback<T>: @unchecked Sendable {
    let body: T
    init(_ body: T) { self.body = body }
}
