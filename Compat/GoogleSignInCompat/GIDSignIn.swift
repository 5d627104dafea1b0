import Dispatch
import Foundation
import SessionCore
import SessionFacade

/// Google Sign-In's `GIDSignIn` (the 5.x API, and the 4.x names 5.0 replaced), on top of
/// ``SessionService``, for any OpenID provider (``issuer``, Google's by default).
///
/// The settings (`clientID`, `scopes`, `issuer`, ...) are read when the first operation runs;
/// the delegates are called on ``callbackQueue`` (main by default). The sign-in page is shown by
/// ``authorizationAgent``, or its URL goes to ``authorizationURLHandler`` and the app hands the
/// redirect to ``handle(_:)``; on iOS the default agent shows it from `presentingViewController`'s
/// window. A sign-in without a client ID reports an error instead of raising an exception.
///
/// `@unchecked Sendable` (an `NSObject` subclass): the settings, `user` and `service` are in
/// `state`, which is `Locked`.
open class GIDSignIn: NSObject, @unchecked Sendable {
    static let shared = GIDSignIn()

    /// The shared instance.
    open class func sharedInstance() -> GIDSignIn! { shared }

    /// `@unchecked Sendable`: the delegates are legacy objects, called only on the callback
    /// queue; `scopes` is `[Any]` as GIDSignIn declares it and holds the strings the app set. The
    /// settings are read and written only inside `state`'s lock.
    private struct Settings: @unchecked Sendable {
        weak var delegate: GIDSignInDelegate?
        weak var uiDelegate: GIDSignInUIDelegate?
        weak var anchor: GIDPresentationAnchor?
        var clientID: String?
        var scopes: [Any] = []
        var shouldFetchBasicProfile = true
        var language: String?
        var loginHint: String?
        var serverClientID: String?
        var openIDRealm: String?
        var hostedDomain: String?
        var issuer = URL(constant: "https://accounts.google.com")
        var redirectURI: URL?
        var agent = AgentChoice.platformDefault
        var urlHandler: (@Sendable (URL) -> Void)?
        var storeDirectory: URL?
        var clientAuthentication = ClientAuthentication.none
        var carriesOverLegacySession = true
        var legacySession = GIDLegacySession()
    }

    private struct State: Sendable {
        var settings = Settings()
        var user: GIDGoogleUser?
        var service: SessionService?
    }

    private let state = Locked(State())
    private let transport: HTTPTransport
    /// The queue the delegate and handlers are called on.
    public let callbackQueue: DispatchQueue

    /// Creates an instance (``sharedInstance()`` uses the defaults).
    public init(transport: HTTPTransport = PlatformDefaults.httpTransport(), callbackQueue: DispatchQueue = .main) {
        self.transport = transport
        self.callbackQueue = callbackQueue
    }

    private func get<T>(_ path: KeyPath<Settings, T>) -> T { state.withLock { $0.settings[keyPath: path] } }
    private func set<T>(_ path: WritableKeyPath<Settings, T>, _ value: T) { state.withLock { $0.settings[keyPath: path] = value } }

    /// The delegate, held weakly.
    public weak var delegate: GIDSignInDelegate! { get { get(\.delegate) } set { set(\.delegate, newValue) } }
    /// Google Sign-In 4.x's UI delegate, held weakly: told when `signIn` is dispatched.
    public weak var uiDelegate: GIDSignInUIDelegate! { get { get(\.uiDelegate) } set { set(\.uiDelegate, newValue) } }
    /// What sign-in presents from (5.x), held weakly: on iOS the default agent shows the page from
    /// its window (the key window without one); elsewhere it is not needed.
    public weak var presentingViewController: GIDPresentationAnchor! { get { get(\.anchor) } set { set(\.anchor, newValue) } }
    /// The client ID.
    public var clientID: String! { get { get(\.clientID) } set { set(\.clientID, newValue) } }
    /// Extra scopes (strings).
    public var scopes: [Any]! { get { get(\.scopes) } set { set(\.scopes, newValue ?? []) } }
    /// Whether `profile` and `email` are asked for and the profile fetched (default true).
    public var shouldFetchBasicProfile: Bool { get { get(\.shouldFetchBasicProfile) } set { set(\.shouldFetchBasicProfile, newValue) } }
    /// The UI language (`hl`).
    public var language: String! { get { get(\.language) } set { set(\.language, newValue) } }
    /// The `login_hint`.
    public var loginHint: String! { get { get(\.loginHint) } set { set(\.loginHint, newValue) } }
    /// The client ID of the app's server, sent as Google does, as `audience` with the
    /// authorization request, the code exchange and each refresh; the provider's `server_code`
    /// becomes ``GIDGoogleUser/serverAuthCode``.
    public var serverClientID: String! { get { get(\.serverClientID) } set { set(\.serverClientID, newValue) } }
    /// The OpenID 2 realm, sent as Google does, as `openid.realm` with the token requests.
    public var openIDRealm: String! { get { get(\.openIDRealm) } set { set(\.openIDRealm, newValue) } }
    /// The hosted domain (`hd`).
    public var hostedDomain: String! { get { get(\.hostedDomain) } set { set(\.hostedDomain, newValue) } }
    /// The provider (default `https://accounts.google.com`).
    public var issuer: URL { get { get(\.issuer) } set { set(\.issuer, newValue) } }
    /// The redirect URI (default: Google's, the reversed client ID with `:/oauth2callback`).
    public var redirectURI: URL! { get { get(\.redirectURI) } set { set(\.redirectURI, newValue) } }

    /// An addition: how the client authenticates at the token and revocation endpoints, for a
    /// confidential client on a server (an app on a device has no secret to keep: leave `.none`).
    public var clientAuthentication: ClientAuthentication {
        get { get(\.clientAuthentication) }
        set { set(\.clientAuthentication, newValue) }
    }
    /// Shows the sign-in page; nil uses the external path (the app passes the redirect to ``handle(_:)``).
    /// Default: a `WebAuthenticationAgent` on Apple platforms, as Google's AppAuth agent was
    /// (``SessionFacade/PlatformDefaults/authorizationAgent(presentingFrom:)``); nil on Linux.
    public var authorizationAgent: AuthorizationAgent? { get { get(\.agent).agent } set { set(\.agent, .chosen(newValue)) } }
    /// Receives the sign-in URL when there is no agent; the app opens it and passes the
    /// redirect to ``handle(_:)``.
    public var authorizationURLHandler: (@Sendable (URL) -> Void)? {
        get { get(\.urlHandler) }
        set { set(\.urlHandler, newValue) }
    }
    /// A directory to keep the session file in; nil (the default) uses ``PlatformDefaults/tokenStore(for:)``:
    /// the keychain on Apple platforms, a file in the XDG data directory elsewhere.
    public var storeDirectory: URL? { get { get(\.storeDirectory) } set { set(\.storeDirectory, newValue) } }
    /// Whether the first restore or sign-in that finds no session of its own carries over the one
    /// Google Sign-In left in its keychain item (``GIDLegacySession``). An addition; default true.
    public var carriesOverLegacySession: Bool {
        get { get(\.carriesOverLegacySession) }
        set { set(\.carriesOverLegacySession, newValue) }
    }
    /// Where Google Sign-In's session is looked for: its keychain item, unless a test chooses another. An addition.
    public var legacySession: GIDLegacySession { get { get(\.legacySession) } set { set(\.legacySession, newValue) } }

    /// The signed-in user, nil when signed out.
    public var currentUser: GIDGoogleUser! { state.withLock { $0.user } }

    // MARK: Configuration

    private func configuration() throws -> SessionConfiguration {
        let settings = state.withLock { $0.settings }
        guard let clientID = settings.clientID, !clientID.isEmpty else {
            throw SessionError(.invalidConfiguration, process: .configuration, message: "GIDSignIn: clientID must be set")
        }
        let reversed = clientID.split(separator: ".").reversed().joined(separator: ".")
        guard let redirect = settings.redirectURI ?? URL(string: "\(reversed):/oauth2callback") else {
            throw SessionError(.invalidConfiguration, process: .configuration, message: "GIDSignIn: no usable redirect URI")
        }
        var scopes = settings.scopes.compactMap { $0 as? String }
        if settings.shouldFetchBasicProfile { scopes = ["profile", "email"] + scopes }
        var extra: [String: String] = [:]
        var tokenExtra: [String: String] = [:]
        if let domain = settings.hostedDomain { extra["hd"] = domain }
        if let language = settings.language { extra["hl"] = language }
        if let server = settings.serverClientID, !server.isEmpty { (extra["audience"], tokenExtra["audience"]) = (server, server) }
        if let realm = settings.openIDRealm, !realm.isEmpty { tokenExtra["openid.realm"] = realm }
        return try SessionConfiguration(issuer: settings.issuer, clientID: clientID, redirectURI: redirect, scopes: scopes,
                                        loginHint: settings.loginHint, additionalParameters: extra, tokenRequestParameters: tokenExtra,
                                        clientAuthentication: settings.clientAuthentication)
    }

    private func store(for configuration: SessionConfiguration) throws -> any LocalTokenStore {
        guard let storeDirectory else { return try PlatformDefaults.tokenStore(for: configuration) }
        return try FileTokenStore(configuration: configuration, directory: storeDirectory)
    }

    /// The service, made and initialized on first use from the settings.
    func sessionService() -> SessionService {
        state.withLock { state in
            if let service = state.service { return service }
            let made = SessionService(store: { [weak self] configuration in
                guard let self else { throw SessionError(.storageFailed, process: .configuration, message: "GIDSignIn is gone") }
                return try self.store(for: configuration)
            }, transport: transport)
            made.callbackQueue = callbackQueue
            made.authorizationURLHandler = { [weak self] url in self?.authorizationURLHandler?(url) }
            made.carryOverLegacySession(from: state.settings.carriesOverLegacySession ? state.settings.legacySession : nil)
            made.initialize(configuration: { [weak self] in
                guard let self else { throw SessionError(.invalidConfiguration, process: .configuration, message: "GIDSignIn is gone") }
                return try self.configuration()
            })
            state.service = made
            return made
        }
    }

    // MARK: Signing in

    /// Google Sign-In 4.x's name for ``hasPreviousSignIn()``.
    public func hasAuthInKeychain() -> Bool { hasPreviousSignIn() }

    /// Google Sign-In 4.x's name for ``restorePreviousSignIn()``.
    public func signInSilently() { restorePreviousSignIn() }

    /// True when a session from an earlier sign-in is stored (ours, or Google Sign-In's that is to be carried over).
    public func hasPreviousSignIn() -> Bool {
        if currentUser != nil { return true }
        guard let configuration = try? configuration(), let store = try? store(for: configuration) else { return false }
        let settings = state.withLock { $0.settings }
        return store.hasStoredSession || (settings.carriesOverLegacySession && settings.legacySession.exists)
    }

    /// Restores the stored sign-in, refreshing it if needed: the delegate gets the user, or a
    /// nil user and `hasNoAuthInKeychain` when nothing is stored.
    public func restorePreviousSignIn() {
        let service = sessionService()
        service.currentTokens { [self] result in
            switch result {
            case .success(let tokens): completeSignIn(tokens, service)
            case .failure(let error) where error.code == .notAuthenticated:
                report(user: nil, GIDSignInErrors.make(.hasNoAuthInKeychain, "there is no previous sign-in", cause: error))
            case .failure(let error):
                report(user: nil, GIDSignInErrors.make(error))
            }
        }
    }

    /// Signs in interactively: the ``authorizationAgent`` shows the page, or, without one, its
    /// URL goes to ``authorizationURLHandler``. The UI delegate hears `signInWillDispatch` once
    /// the page is on its way, or with `noSignInHandlersInstalled` when neither is set; the
    /// delegate then gets the user or the error.
    public func signIn() {
        guard clientID != nil else {
            return reportOnQueue(GIDSignInErrors.make(.unknown, "signIn needs a clientID"))
        }
        let agent = state.withLock { $0.settings.agent.agent(presentingFrom: $0.settings.anchor) }
        guard agent != nil || authorizationURLHandler != nil else {
            let error = GIDSignInErrors.make(.noSignInHandlersInstalled, "signIn needs an authorizationAgent or an authorizationURLHandler")
            return callbackQueue.async { [self] in
                uiDelegate?.sign(inWillDispatch: self, error: error)
                report(user: nil, error)
            }
        }
        let service = sessionService()
        let dispatched = ObservedAuthorizationAgent(agent ?? service.externalRedirectAgent) { [self] _ in
            callbackQueue.async { [self] in uiDelegate?.sign(inWillDispatch: self, error: nil) }
        }
        service.getAuthorization(flow: .login, agent: dispatched, tokensCompletion: { [self] result in
            switch result {
            case .failure(let error): report(user: nil, GIDSignInErrors.make(error))
            case .success(let tokens): completeSignIn(tokens, service)
            }
        })
    }

    /// Google Sign-In 4.x's URL handler: ``handle(_:)``; the source application and annotation
    /// are not needed.
    public func handle(_ url: URL!, sourceApplication: String!, annotation: Any!) -> Bool {
        handle(url)
    }

    /// Completes an authorization on the external path with the redirect the app received.
    public func handle(_ url: URL!) -> Bool {
        guard let url else { return false }
        return sessionService().resumeSession(url)
    }

    /// Signs out locally; no delegate method is called.
    public func signOut() {
        state.withLock { $0.user = nil }
        sessionService().endSession(revokeTokens: false)
    }

    /// Revokes the grant at the provider, signs out, then calls `didDisconnectWith`.
    public func disconnect() {
        let departing = currentUser
        sessionService().endSession(revokeTokens: true) { [self] result in
            if case .success = result { state.withLock { $0.user = nil } }
            let error: Error? = if case .failure(let error) = result { GIDSignInErrors.make(error) } else { nil }
            delegate?.sign(self, didDisconnectWith: departing, withError: error)
        }
    }

    private func completeSignIn(_ tokens: SessionTokens, _ service: SessionService) {
        let authentication = GIDAuthentication(tokens: tokens, clientID: clientID ?? "", service: service)
        guard shouldFetchBasicProfile else {
            return adopt(GIDGoogleUser(tokens: tokens, profile: nil, authentication: authentication))
        }
        service.fetchUserInfo { [self] result in
            switch result {
            case .success(let info): adopt(GIDGoogleUser(tokens: tokens, profile: GIDProfileData(info), authentication: authentication))
            case .failure(let error): report(user: nil, GIDSignInErrors.make(error))
            }
        }
    }

    private func adopt(_ signedIn: GIDGoogleUser) {
        state.withLock { $0.user = signedIn }
        report(user: signedIn, nil)
    }

    /// Called on the callback queue.
    private func report(user: GIDGoogleUser?, _ error: Error?) {
        delegate?.sign(self, didSignInFor: user, withError: error)
    }

    private func reportOnQueue(_ error: NSError) {
        callbackQueue.async { [self] in report(user: nil, error) }
    }
}
