import Foundation

/// The OpenID Connect client: one user's session on an ``OpenIDProvider`` — authorization code +
/// PKCE, token validation, refresh, UserInfo, resource requests and sign-out. All protocol logic of
/// SessionService lives here and in the provider it shares with other sessions.
///
/// `SessionClient` is an actor; every method may be called from any task. It promises:
/// - a rotated refresh token is saved to the ``TokenStore`` before any caller sees it;
/// - concurrent callers needing a refresh share one refresh request, which is never retried;
/// - once ``signOut(revokeTokens:)`` has begun, no refresh or sign-in started earlier writes
///   tokens back;
/// - no token, code, verifier, `state` or `nonce` value appears in its logs or errors.
///
/// ```swift
/// let client = try SessionClient(configuration: configuration, store: FileTokenStore(configuration: configuration))
/// let tokens = try await client.signIn(agent: agent)
/// let user = try await client.userInfo()
/// ```
///
/// A server with a session per user shares one provider among them (``init(provider:store:)``).
public actor SessionClient {
    /// The provider the session is on, shared with every other session on it.
    public nonisolated let provider: OpenIDProvider
    let store: TokenStore
    /// The session: its tokens, epoch, loaded DPoP key and what was last seen of the store.
    var state = SessionState()
    let refreshFlight = SingleFlight<SessionTokens>()
    /// Store writes, one at a time in arrival order.
    var storeTurns = StoreTurns()
    /// The sign-in begun here and not finished yet.
    var pending: AuthorizationRequest?
    /// Who hears the session's events, and what the log said once.
    var events = SessionEvents()

    /// The configuration the client was created with (its provider's).
    public nonisolated var configuration: SessionConfiguration { provider.configuration }
    nonisolated var exchange: ProviderExchange { provider.exchange }
    nonisolated var clock: SessionClock { provider.clock }
    nonisolated var log: LogSink { provider.log }

    /// Creates one user's session on `provider`, kept in `store`. Nothing is fetched until first
    /// needed; what the provider publishes is fetched once for all its sessions.
    public init(provider: OpenIDProvider, store: TokenStore = InMemoryTokenStore()) {
        self.provider = provider
        self.store = store
    }

    /// Creates a client on a provider of its own. Nothing is fetched until first needed.
    /// - Parameters:
    ///   - configuration: the provider and app settings.
    ///   - store: where tokens are kept (default: in memory only); one with a
    ///     ``TokenStore/providerDocumentCache`` (as ``FileTokenStore`` has) keeps the provider's
    ///     documents too.
    ///   - transport: how requests are sent (default: ``PlatformDefaults/httpTransport()``: libcurl on Linux, `URLSession` on Apple platforms).
    ///   - clock: the time source for expiry and ID-token checks.
    ///   - logger: receives redacted log lines.
    public init(
        configuration: SessionConfiguration,
        store: TokenStore = InMemoryTokenStore(),
        transport: HTTPTransport = PlatformDefaults.httpTransport(),
        clock: SessionClock = SystemClock(),
        logger: SessionLogger = SilentLogger()
    ) {
        self.init(provider: OpenIDProvider(configuration: configuration, transport: transport, clock: clock, logger: logger,
                                           documentStore: store.providerDocumentCache),
                  store: store)
    }

    /// The provider's metadata (``OpenIDProvider/discover()``): known after the first call, then
    /// returned without a wait.
    public func discover() async throws -> ProviderMetadata {
        // Read here, not through the provider's async method, which would leave the actor and
        // come back on every call.
        if let metadata = provider.knownMetadata { return metadata }
        return try await provider.discover()
    }

    /// The provider's revocation endpoint (``OpenIDProvider/revocationEndpoint()``).
    public func revocationEndpoint() async throws -> URL? {
        try await provider.revocationEndpoint()
    }

    /// The tokens of the current session, without refreshing; nil when signed out.
    public var tokens: SessionTokens? { state.tokens }
}

extension SessionClient {
    /// Sets the function that hears ``SessionEvent``s (nil: none). It is called on the client,
    /// synchronously, as each event happens — before the call that caused it returns — so it
    /// must return quickly and must not call back into the client; hand the event on instead.
    public func setEventHandler(_ handler: (@Sendable (SessionEvent) -> Void)?) {
        events.handler = handler
    }

    /// Tells the event handler, if any.
    func emit(_ event: SessionEvent) {
        events.handler?(event)
    }
}
