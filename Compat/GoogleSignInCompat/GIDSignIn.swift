import Dispatch
import Foundation
import LegacySessionReaders
import SessionCore
import SessionFacade

/// Google Sign-In's `GIDSignIn` (the 5.x API, and the 4.x names 5.0 replaced), on top of
/// `SessionService`, for any OpenID provider (``issuer``, Google's by default).
///
/// The settings (`clientID`, `scopes`, `issuer`, ...) are read when the first operation runs;
/// the delegates are called on ``callbackQueue`` (main by default). The sign-in page is shown by
/// ``authorizationAgent``, or its URL goes to ``authorizationURLHandler`` and the app hands the
/// redirect to ``handle(_:)``; on iOS the default agent shows it from `presentingViewController`'s
/// window. A sign-in without a client ID reports an error instead of raising an exception.
///
/// `open`, as every class Swift imports from Objective-C is: an app's test double may subclass
/// it and override its methods. Its state is in a `GIDSignInCore`, behind a lock, so every
/// method may be called from any thread.
open class GIDSignIn: NSObject {
    /// The shared instance. `nonisolated(unsafe)`: it is never replaced, and everything it holds
    /// is behind its core's lock.
    nonisolated(unsafe) static let shared = GIDSignIn()

    /// The shared instance.
    open class func sharedInstance() -> GIDSignIn! { shared }

    let core: GIDSignInCore
    /// The queue the delegate and handlers are called on.
    public var callbackQueue: DispatchQueue { core.callbackQueue }

    /// Creates an instance (``sharedInstance()`` uses the defaults).
    public init(transport: HTTPTransport = PlatformDefaults.httpTransport(), callbackQueue: DispatchQueue = .main) {
        core = GIDSignInCore(transport: transport, callbackQueue: callbackQueue)
    }

    private func get<T>(_ path: KeyPath<GIDSignInCore.Settings, T>) -> T { core.get(path) }
    private func set<T>(_ path: WritableKeyPath<GIDSignInCore.Settings, T>, _ value: T) { core.set(path, value) }

    /// The delegate, held weakly.
    open weak var delegate: GIDSignInDelegate! { get { get(\.delegate) } set { set(\.delegate, newValue) } }
    /// Google Sign-In 4.x's UI delegate, held weakly: told when `signIn` is dispatched.
    open weak var uiDelegate: GIDSignInUIDelegate! { get { get(\.uiDelegate) } set { set(\.uiDelegate, newValue) } }
    /// What sign-in presents from (5.x), held weakly: on iOS the default agent shows the page from
    /// its window (the key window without one); elsewhere it is not needed.
    open weak var presentingViewController: GIDPresentationAnchor! { get { get(\.anchor) } set { set(\.anchor, newValue) } }
    /// The client ID.
    open var clientID: String! { get { get(\.clientID) } set { set(\.clientID, newValue) } }
    /// Extra scopes (strings).
    open var scopes: [Any]! { get { get(\.scopes) } set { set(\.scopes, newValue ?? []) } }
    /// Whether `profile` and `email` are asked for and the profile fetched (default true).
    open var shouldFetchBasicProfile: Bool { get { get(\.shouldFetchBasicProfile) } set { set(\.shouldFetchBasicProfile, newValue) } }
    /// The UI language (`hl`).
    open var language: String! { get { get(\.language) } set { set(\.language, newValue) } }
    /// The `login_hint`.
    open var loginHint: String! { get { get(\.loginHint) } set { set(\.loginHint, newValue) } }
    /// The client ID of the app's server, sent as Google does, as `audience` with the
    /// authorization request, the code exchange and each refresh; the provider's `server_code`
    /// becomes ``GIDGoogleUser/serverAuthCode``.
    open var serverClientID: String! { get { get(\.serverClientID) } set { set(\.serverClientID, newValue) } }
    /// The OpenID 2 realm, sent as Google does, as `openid.realm` with the token requests.
    open var openIDRealm: String! { get { get(\.openIDRealm) } set { set(\.openIDRealm, newValue) } }
    /// The hosted domain (`hd`).
    open var hostedDomain: String! { get { get(\.hostedDomain) } set { set(\.hostedDomain, newValue) } }
    /// The provider (default `https://accounts.google.com`).
    open var issuer: URL { get { get(\.issuer) } set { set(\.issuer, newValue) } }
    /// The redirect URI (default: Google's, the reversed client ID with `:/oauth2callback`).
    open var redirectURI: URL! { get { get(\.redirectURI) } set { set(\.redirectURI, newValue) } }

    /// An addition: how the client authenticates at the token and revocation endpoints, for a
    /// confidential client on a server (an app on a device has no secret to keep: leave `.none`).
    open var clientAuthentication: ClientAuthentication {
        get { get(\.clientAuthentication) }
        set { set(\.clientAuthentication, newValue) }
    }
    /// Shows the sign-in page; nil uses the external path (the app passes the redirect to ``handle(_:)``).
    /// Default: a `WebAuthenticationAgent` on Apple platforms, as Google's AppAuth agent was
    /// (`PlatformDefaults.authorizationAgent(presentingFrom:)`); nil on Linux.
    open var authorizationAgent: AuthorizationAgent? { get { get(\.agent).agent } set { set(\.agent, .chosen(newValue)) } }
    /// Receives the sign-in URL when there is no agent; the app opens it and passes the
    /// redirect to ``handle(_:)``.
    open var authorizationURLHandler: (@Sendable (URL) -> Void)? {
        get { get(\.urlHandler) }
        set { set(\.urlHandler, newValue) }
    }
    /// A directory to keep the session file in; nil (the default) uses `PlatformDefaults.tokenStore(for:)`:
    /// the keychain on Apple platforms, a file in the XDG data directory elsewhere.
    open var storeDirectory: URL? { get { get(\.storeDirectory) } set { set(\.storeDirectory, newValue) } }
    /// Whether the first restore or sign-in that finds no session of its own carries over the one
    /// Google Sign-In left in its keychain item (``GIDLegacySession``). An addition; default true.
    open var carriesOverLegacySession: Bool {
        get { get(\.carriesOverLegacySession) }
        set { set(\.carriesOverLegacySession, newValue) }
    }
    /// Where Google Sign-In's session is looked for: its keychain item, unless a test chooses another. An addition.
    open var legacySession: GIDLegacySession { get { get(\.legacySession) } set { set(\.legacySession, newValue) } }

    /// The signed-in user, nil when signed out.
    open var currentUser: GIDGoogleUser! { core.user }

    /// The service, made and initialized on first use from the settings.
    func sessionService() -> SessionService { core.sessionService() }

    // MARK: Signing in

    /// Google Sign-In 4.x's name for ``hasPreviousSignIn()``.
    open func hasAuthInKeychain() -> Bool { hasPreviousSignIn() }

    /// Google Sign-In 4.x's name for ``restorePreviousSignIn()``.
    open func signInSilently() { restorePreviousSignIn() }

    /// True when a session from an earlier sign-in is stored (ours, or Google Sign-In's that is to be carried over).
    open func hasPreviousSignIn() -> Bool {
        if currentUser != nil { return true }
        guard let configuration = try? core.configuration(), let store = try? core.store(for: configuration) else { return false }
        return store.hasStoredSession || (get(\.carriesOverLegacySession) && get(\.legacySession).exists)
    }

    /// Restores the stored sign-in, refreshing it if needed: the delegate gets the user, or a
    /// nil user and `hasNoAuthInKeychain` when nothing is stored.
    open func restorePreviousSignIn() {
        let service = sessionService()
        let me = CallbackQueueBound(self)
        service.currentTokens { result in
            switch result {
            case .success(let tokens): me.value.completeSignIn(tokens, service)
            case .failure(let error) where error.code == .notAuthenticated:
                me.value.report(user: nil, GIDSignInErrors.make(.hasNoAuthInKeychain, "there is no previous sign-in", cause: error))
            case .failure(let error):
                me.value.report(user: nil, GIDSignInErrors.make(error))
            }
        }
    }

    /// Signs in interactively: the ``authorizationAgent`` shows the page, or, without one, its
    /// URL goes to ``authorizationURLHandler``. The UI delegate hears `signInWillDispatch` once
    /// the page is on its way, or with `noSignInHandlersInstalled` when neither is set; the
    /// delegate then gets the user or the error.
    open func signIn() {
        let me = CallbackQueueBound(self)
        guard clientID != nil else {
            return callbackQueue.async { me.value.report(user: nil, GIDSignInErrors.make(.unknown, "signIn needs a clientID")) }
        }
        let agent = core.state.withLock { $0.settings.agent.agent(presentingFrom: $0.settings.anchor) }
        guard agent != nil || authorizationURLHandler != nil else {
            let error = GIDSignInErrors.make(.noSignInHandlersInstalled, "signIn needs an authorizationAgent or an authorizationURLHandler")
            return callbackQueue.async {
                me.value.uiDelegate?.sign(inWillDispatch: me.value, error: error)
                me.value.report(user: nil, error)
            }
        }
        let service = sessionService()
        let queue = callbackQueue
        let dispatched = ObservedAuthorizationAgent(agent ?? service.externalRedirectAgent) { _ in
            queue.async { me.value.uiDelegate?.sign(inWillDispatch: me.value, error: nil) }
        }
        service.getAuthorization(flow: .login, agent: dispatched, tokensCompletion: { result in
            switch result {
            case .failure(let error): me.value.report(user: nil, GIDSignInErrors.make(error))
            case .success(let tokens): me.value.completeSignIn(tokens, service)
            }
        })
    }

    /// Google Sign-In 4.x's URL handler: ``handle(_:)``; the source application and annotation
    /// are not needed.
    @discardableResult
    open func handle(_ url: URL!, sourceApplication: String!, annotation: Any!) -> Bool {
        guard let url else { return false }
        return handle(url)
    }

    /// Completes an authorization on the external path with the redirect the app received; false
    /// when `url` is not the pending sign-in's redirect (the result may be ignored, as Swift
    /// allows for Google's imported method).
    @discardableResult
    open func handle(_ url: URL) -> Bool {
        sessionService().resumeSession(url)
    }

    /// Signs out locally; no delegate method is called.
    open func signOut() {
        core.user = nil
        sessionService().endSession(revokeTokens: false)
    }

    /// Revokes the grant at the provider, signs out, then calls `didDisconnectWith`.
    open func disconnect() {
        let me = CallbackQueueBound((signIn: self, departing: currentUser))
        sessionService().endSession(revokeTokens: true) { result in
            let (signIn, departing) = me.value
            if case .success = result { signIn.core.user = nil }
            let error: Error? = if case .failure(let error) = result { GIDSignInErrors.make(error) } else { nil }
            signIn.delegate?.sign(signIn, didDisconnectWith: departing, withError: error)
        }
    }

    /// The user for `tokens`, reported on the callback queue: its profile from the ID token when
    /// it carries one (no request, so a restore with valid tokens works offline, as Google's
    /// does: GIDSignIn.m, f8f0517, lines 521–534), from UserInfo otherwise.
    private func completeSignIn(_ tokens: SessionTokens, _ service: SessionService) {
        let clientID = clientID ?? ""
        let user = { @Sendable [core] (profile: GIDProfileData?) in
            GIDGoogleUser(tokens: tokens, profile: profile,
                          authentication: GIDAuthentication(tokens: tokens, clientID: clientID, service: service, signIn: core))
        }
        guard shouldFetchBasicProfile else { return adopt(user(nil)) }
        if let profile = GIDProfileData(idTokenClaims: tokens.idTokenClaims) { return adopt(user(profile)) }
        let me = CallbackQueueBound(self)
        service.fetchUserInfo { result in
            switch result {
            case .success(let info): me.value.adopt(user(GIDProfileData(info)))
            case .failure(let error): me.value.report(user: nil, GIDSignInErrors.make(error))
            }
        }
    }

    private func adopt(_ signedIn: GIDGoogleUser) {
        core.user = signedIn
        report(user: signedIn, nil)
    }

    /// Called on the callback queue.
    private func report(user: GIDGoogleUser?, _ error: Error?) {
        delegate?.sign(self, didSignInFor: user, withError: error)
    }
}
