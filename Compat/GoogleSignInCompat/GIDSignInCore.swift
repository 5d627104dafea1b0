import Dispatch
import Foundation
import LegacySessionReaders
import SessionCore
import SessionFacade

/// What a ``GIDSignIn`` keeps and shares with the closures its service calls from other threads
/// (the store, the configuration, the URL handler): its settings, the signed-in user and the
/// service, made on first use. ``GIDSignIn`` is open for apps to subclass, so it cannot be
/// `Sendable` itself (a subclass would have to restate that); this part is.
///
/// `@unchecked Sendable`: the settings, the user and the service are in `state`, which is `Locked`;
/// the transport and the queue are `let`.
final class GIDSignInCore: @unchecked Sendable {
    /// `@unchecked Sendable`: the delegates are legacy objects, called only on the callback
    /// queue; `scopes` is `[Any]` as GIDSignIn declares it and holds the strings the app set. The
    /// settings are read and written only inside `state`'s lock.
    struct Settings: @unchecked Sendable {
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

    /// `@unchecked Sendable`: read and written only inside `state`'s lock (the user is an open,
    /// so not `Sendable`, class).
    struct State: @unchecked Sendable {
        var settings = Settings()
        var user: GIDGoogleUser?
        var service: SessionService?
    }

    let state = Locked(State())
    let transport: HTTPTransport
    let callbackQueue: DispatchQueue

    init(transport: HTTPTransport, callbackQueue: DispatchQueue) {
        self.transport = transport
        self.callbackQueue = callbackQueue
    }

    func get<T>(_ path: KeyPath<Settings, T>) -> T { state.withLock { $0.settings[keyPath: path] } }
    func set<T>(_ path: WritableKeyPath<Settings, T>, _ value: T) { state.withLock { $0.settings[keyPath: path] = value } }

    /// The signed-in user, nil when signed out.
    var user: GIDGoogleUser? {
        get { state.withLock { $0.user } }
        set { state.withLock { $0.user = newValue } }
    }

    /// True while a user is signed in here and, when `subject` is given, it is that user.
    func isSignedIn(subject: String?) -> Bool {
        state.withLock { state in
            guard let user = state.user else { return false }
            return subject == nil || Exact.equal(user.authentication.subject, subject)
        }
    }

    func configuration() throws -> SessionConfiguration {
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

    func store(for configuration: SessionConfiguration) throws -> any LocalTokenStore {
        guard let storeDirectory = get(\.storeDirectory) else { return try PlatformDefaults.tokenStore(for: configuration) }
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
            made.authorizationURLHandler = { [weak self] url in self?.get(\.urlHandler)?(url) }
            made.carryOverLegacySession(from: state.settings.carriesOverLegacySession ? state.settings.legacySession : nil)
            made.initialize(configuration: { [weak self] in
                guard let self else { throw SessionError(.invalidConfiguration, process: .configuration, message: "GIDSignIn is gone") }
                return try self.configuration()
            })
            state.service = made
            return made
        }
    }
}
