import Foundation
import LoopbackHTTP
import SessionCore
import SessionPermissions

/// A real OpenID provider on a loopback port, for end-to-end tests, samples and demos.
///
/// It serves discovery (OIDC and RFC 8414), a JWK Set, the authorization endpoint with scripted
/// consent, the token endpoint (authorization code with PKCE S256; refresh with rotation, where
/// reuse of a rotated refresh token revokes its whole family), UserInfo, revocation (RFC 7009)
/// and a netID-style permission center that keeps state per subject and, as netID's, accepts only
/// the permission token an ID token carries in its `permission_management` claim (the access token
/// only for a session without an ID token). ID tokens are signed with a key generated at start, which tests can roll over and withdraw.
/// Tests can inject faults per endpoint and read a request log.
///
/// Left running, it stays bounded: the log keeps the newest ``Options/requestLogLimit`` requests,
/// expired codes and tokens and those of revoked grants are forgotten as new ones are issued, and
/// the ``Options/stateFile`` is written only when what it keeps changed.
///
/// It is a test provider: it keeps its state in memory, trusts its scripted consent instead of
/// a login, and makes tokens that are random but not meant to resist a determined attacker.
///
/// ```swift
/// let provider = try LocalProvider()
/// defer { provider.stop() }
/// let client = SessionClient(configuration: try provider.configuration())
/// _ = try await client.signIn(agent: HeadlessUserAgent())
/// ```
public final class LocalProvider: Sendable {
    /// The issuer: `http://127.0.0.1:PORT` (or `http://[::1]:PORT`), without a trailing slash.
    public let issuer: URL
    /// The options the provider started with.
    public let options: Options
    private let server: LoopbackHTTPServer
    let engine: LocalProviderEngine

    /// Generates a signing key and starts serving on a loopback port.
    /// - Throws: `cryptoFailure` when no key can be made; `POSIXError` when the port cannot be bound.
    public init(options: Options = Options()) throws {
        let key = try SigningKey(algorithm: options.signingAlgorithm, keyID: Self.newKeyID())
        let engine = LocalProviderEngine(options: options, key: key)
        let previousPort = engine.restore()?.port
        let handler: LoopbackHTTPServer.Handler = { request in engine.handle(request) }
        if options.port == 0, let previousPort, let reused = try? LoopbackHTTPServer(host: options.host, port: previousPort, handler: handler) {
            server = reused
        } else {
            server = try LoopbackHTTPServer(host: options.host, port: options.port, handler: handler)
        }
        issuer = server.baseURL
        engine.start(issuer: issuer, port: server.port)
        self.engine = engine
        self.options = options
    }

    /// Starts a provider on `clock` (a ``ManualClock`` shared with the client, typically),
    /// with the default options changed by `configure`.
    public convenience init(clock: SessionClock, configure: (inout Options) -> Void = { _ in }) throws {
        var options = Options()
        options.clock = clock
        configure(&options)
        try self.init(options: options)
    }

    deinit {
        server.stop()
    }

    /// Stops serving; the port is free a moment later (``waitUntilStopped()``). Safe to call twice.
    public func stop() {
        server.stop()
    }

    /// Waits, without blocking a thread, until the port is free after ``stop()``.
    public func waitUntilStopped() async {
        await server.waitUntilStopped()
    }

    /// The URL of `endpoint`.
    public func url(of endpoint: Endpoint) -> URL {
        issuer.appendingPathComponent(String(endpoint.path.dropFirst()))
    }

    /// The permission center's read and write endpoints.
    public var permissionCenter: PermissionCenterEndpoints {
        get throws { try PermissionCenterEndpoints(read: url(of: .permissionRead), write: url(of: .permissionWrite)) }
    }

    /// A configuration for one of the provider's clients (its permission center is
    /// ``permissionCenter``).
    /// - Parameters:
    ///   - clientID: a registered client (default: the first one).
    ///   - redirectURI: one of the client's redirect URIs (default: its first).
    ///   - scopes: extra scopes beyond the flow's.
    ///   - refreshLeeway: seconds before expiry at which a token is refreshed.
    ///   - dpop: whether the client binds its tokens to a DPoP key.
    ///
    /// A provider without OpenID Connect (``Options/servesOpenIDConnect``) is configured as an
    /// OAuth 2.0 authorization server (``MetadataDiscovery/authorizationServer``).
    public func configuration(clientID: String? = nil, redirectURI: URL? = nil, scopes: [String] = [],
                              refreshLeeway: TimeInterval = 60, dpop: DPoPMode = .off) throws -> SessionConfiguration {
        guard let client = options.clients.first(where: { clientID == nil || Exact.equal($0.id, clientID) }),
              let redirect = redirectURI ?? client.redirectURIs.first else {
            throw SessionError(.invalidConfiguration, process: .configuration, message: "the local provider has no such client")
        }
        return try SessionConfiguration(issuer: issuer, clientID: client.id, redirectURI: redirect, scopes: scopes,
                                        refreshLeeway: refreshLeeway, dpop: dpop,
                                        metadataDiscovery: options.servesOpenIDConnect ? .openIDConnect : .authorizationServer)
    }

    // MARK: Consent

    /// What the next authorizations decide, in order; after these, ``defaultConsent`` applies.
    public func scriptConsent(_ decisions: ConsentDecision...) {
        engine.withState { $0.scriptedConsent += decisions }
    }

    /// The decision when no scripted one is left (initially ``ConsentDecision/approve``).
    public var defaultConsent: ConsentDecision {
        get { engine.withState { $0.defaultConsent } }
        set { engine.withState { $0.defaultConsent = newValue } }
    }

    // MARK: Faults

    /// Makes the next `times` requests to `endpoint` fail with `fault` (every request until
    /// ``removeFaults()`` when `times` is nil). Faults queue in the order injected.
    public func inject(_ fault: Fault, at endpoint: Endpoint, times: Int? = 1) {
        engine.withState { $0.faults[endpoint, default: []].append(InjectedFault(fault: fault, remaining: times)) }
    }

    /// Runs `observer` each time `endpoint` has sent an answer (then closes that connection), or
    /// stops with nil: a test can act at the moment a client has its answer but has not yet
    /// handled it, such as killing the client's process.
    public func afterAnswering(_ endpoint: Endpoint, _ observer: (@Sendable () -> Void)?) {
        engine.withState { $0.answerObservers[endpoint] = observer }
    }

    /// Runs `observer` each time a request to `endpoint` arrives, before any fault injected there
    /// (a delay, say) applies, or stops with nil: a test can act while a client waits for its answer.
    public func whenReceiving(_ endpoint: Endpoint, _ observer: (@Sendable () -> Void)?) {
        engine.withState { $0.arrivalObservers[endpoint] = observer }
    }

    /// Removes every injected fault.
    public func removeFaults() {
        engine.withState { $0.faults = [:] }
    }

    // MARK: Signing keys

    /// The ID of the key ID tokens are signed with now.
    public var signingKeyID: String { engine.withState { $0.keys.signing.keyID } }

    /// The IDs of the keys the JWK Set publishes, in the order published.
    public var publishedKeyIDs: [String] { engine.withState { $0.keys.published.map(\.keyID) } }

    /// Makes a new signing key, publishes it and signs ID tokens with it from now on, as a provider
    /// rolls its keys over. The earlier keys stay published until ``unpublishKey(id:)``.
    /// - Returns: the new key's ID.
    /// - Throws: `cryptoFailure` when no key can be made.
    @discardableResult
    public func rotateSigningKey() throws -> String {
        let key = try SigningKey(algorithm: options.signingAlgorithm, keyID: Self.newKeyID())
        engine.withState { $0.keys.rotate(to: key) }
        return key.keyID
    }

    /// Takes the key `id` out of the JWK Set. When it is the signing key, ID tokens are still
    /// signed with it: to a client that is a key the provider withdrew, such as a stolen one,
    /// which must stop verifying once the client's cached key set expires.
    /// - Returns: false when no published key has that ID.
    @discardableResult
    public func unpublishKey(id: String) -> Bool {
        engine.withState { $0.keys.unpublish(keyID: id) }
    }

    static func newKeyID() -> String { "local-\(UUID().uuidString.prefix(8).lowercased())" }

    // MARK: Inspection

    /// The requests received, in arrival order (faulted ones too): the newest
    /// ``Options/requestLogLimit``.
    public var requestLog: [LoggedRequest] { engine.withState { $0.loggedRequests(limit: options.requestLogLimit) } }

    /// The refreshes the provider honoured, oldest first: whose grant, and when (by its clock).
    public var refreshes: [(subject: String, at: Date)] { engine.withState { $0.refreshes } }

    /// How many times a rotated refresh token was presented again (each time its grant was
    /// revoked, RFC 9700 §4.14.2): a client that never replays one keeps this at zero.
    public var refreshTokenReuses: Int { engine.withState { $0.refreshTokenReuses } }

    /// How many authorization codes and tokens the provider remembers. Expired and revoked ones
    /// are forgotten as new ones are issued, so it stays near the number of usable ones.
    public var retainedCredentials: Int { engine.withState { $0.retainedCredentials } }

    /// The requests received by `endpoint`, in arrival order.
    public func requests(to endpoint: Endpoint) -> [LoggedRequest] {
        requestLog.filter { $0.endpoint == endpoint }
    }

    /// The permission-center record of `subject`, nil when it has none.
    public func permissions(of subject: String) -> PermissionRecord? {
        engine.withState { $0.permissions[subject] }
    }

    /// Replaces (or with nil removes) the permission-center record of `subject`.
    public func setPermissions(_ record: PermissionRecord?, of subject: String) {
        engine.withState { $0.permissions[subject] = record }
    }

    /// True while `refreshToken` would be accepted by the token endpoint.
    public func isActive(refreshToken: String) -> Bool {
        engine.withState { $0.isActive(refreshToken: refreshToken) }
    }

    /// The user at another device approves the device sign-in showing `userCode`, as `subject`
    /// (default: the first user); false when no sign-in with that code is pending.
    @discardableResult
    public func approveDeviceSignIn(userCode: String, as subject: String? = nil) -> Bool {
        guard let subject = subject ?? options.users.first?.subject else { return false }
        return engine.decideDeviceSignIn(userCode: userCode, .approved(subject: subject))
    }

    /// The user at another device denies the device sign-in showing `userCode`; false when none
    /// with that code is pending.
    @discardableResult
    public func denyDeviceSignIn(userCode: String) -> Bool {
        engine.decideDeviceSignIn(userCode: userCode, .denied)
    }

    /// How many times a browser came through the end-session endpoint and was signed out.
    public var endedSessions: Int { engine.withState { $0.endedSessions } }

    /// The member a logout token's `events` claim names (Back-Channel Logout 1.0 §2.4).
    public static let backChannelLogoutEvent = "http://schemas.openid.net/event/backchannel-logout"

    /// A logout token for `clientID` (default: the first client) naming `subject` and the provider
    /// session `sessionID`, as the end-session endpoint sends one, with `changes` applied to its
    /// claims (a nil value removes the claim) and `header` merged into its header: for tests of a
    /// back-channel logout endpoint, each rule broken one at a time.
    public func logoutToken(subject: String?, sessionID: String?, clientID: String? = nil, changes: [String: Any?] = [:],
                            header: [String: Any] = [:]) throws -> String {
        try engine.logoutToken(clientID: clientID ?? options.clients.first?.id ?? "", subject: subject, sessionID: sessionID,
                               changes: changes, header: header)
    }

    /// Registers `uri` as the back-channel logout URI of the client `clientID` from now on, in place
    /// of its ``Client/backChannelLogoutURI``: for an application whose address is known only once
    /// it listens.
    public func register(backChannelLogoutURI uri: URL, forClient clientID: String) {
        engine.withState { $0.backChannelLogoutURIs[clientID] = uri }
    }

    /// Ends `subject`'s sessions at the provider as an administrator would, and tells the client
    /// `clientID` (default: the first) at its back-channel logout URI with a logout token naming
    /// the user (no `sid`: every session of theirs). Returns the status the client answered; nil
    /// when it has no URI or did not answer.
    @discardableResult
    public func endSessions(ofSubject subject: String, clientID: String? = nil) async -> Int? {
        guard let client = options.clients.first(where: { clientID == nil || Exact.equal($0.id, clientID) }),
              let uri = engine.withState({ $0.backChannelLogoutURIs[client.id] }) ?? client.backChannelLogoutURI,
              let token = try? engine.logoutToken(clientID: client.id, subject: subject, sessionID: nil) else { return nil }
        let status = try? await PlatformDefaults.httpTransport().send(HTTPRequest.formPost(uri, [("logout_token", token)])).status
        engine.withState { $0.backChannelLogouts.append((uri, status)) }
        return status
    }

    /// The back-channel logouts sent, in order: to which URI, and the status answered (nil: none came).
    public var backChannelLogouts: [(uri: URL, status: Int?)] { engine.withState { $0.backChannelLogouts } }

    /// Revokes `accessToken` as an administrator would, without the client knowing: resource
    /// calls with it are refused with `invalid_token` while the client still thinks it fresh.
    public func revoke(accessToken: String) {
        engine.withState { $0.accessTokens[accessToken] = nil }
    }

    /// The thumbprint of the DPoP key `accessToken` is bound to (its `cnf.jkt`, RFC 9449 §6);
    /// nil for a Bearer token or an unknown one.
    public func dpopBinding(ofAccessToken accessToken: String) -> String? {
        engine.withState { $0.accessTokens[accessToken]?.grant.jkt }
    }

    /// Gives DPoP proofs a new nonce to carry (``Options/requiresDPoPNonce``), as a server does
    /// from time to time; the next proof with the old one is answered `use_dpop_nonce`.
    public func rotateDPoPNonce() {
        engine.withState { $0.dpopNonce = LocalProviderEngine.randomValue("dn") }
    }

    /// True while `accessToken` would be accepted by UserInfo.
    public func isActive(accessToken: String) -> Bool {
        let now = options.clock.now()
        return engine.withState { $0.accessGrant(for: accessToken, at: now) != nil }
    }

    /// True while the permission center would accept `token`: a permission token from an ID
    /// token's `permission_management` claim, or the access token of a session without an ID token.
    public func acceptsAtPermissionCenter(_ token: String) -> Bool {
        let now = options.clock.now()
        return engine.withState { $0.permissionGrant(for: token, at: now) != nil }
    }
}
