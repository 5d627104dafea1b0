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
    /// The configuration the client was created with (its provider's).
    public nonisolated let configuration: SessionConfiguration
    let store: TokenStore
    let exchange: ProviderExchange
    nonisolated let clock: SessionClock
    let log: LogSink

    var pending: AuthorizationRequest?
    /// The session in memory; nil when signed out.
    var current: SessionTokens?
    /// Bumped whenever the session ends, so work started before cannot write tokens back.
    var generation = 0
    let refreshFlight = SingleFlight<SessionTokens>()
    /// Hears the session's ``SessionEvent``s.
    var eventHandler: (@Sendable (SessionEvent) -> Void)?
    var storeBusy = false
    /// Whether the log already said that the provider's tokens live shorter than the leeway.
    var toldShortLifetime = false
    var storeWaiters: [CheckedContinuation<Void, Never>] = []
    /// The DPoP nonce each server gave last (RFC 9449 §8, §9), by origin.
    var dpopNonces: [String: String] = [:]
    /// The session's DPoP key as last read from its tokens: reading one is costly (libcrypto's
    /// decoders), so a request does not pay for it each time.
    var loadedDPoPKey: DPoPKey?
    /// The version of the shared store's session last found to be this account's, so the path
    /// of a fresh token reads the store only after it changed (``TokenStore/storedSessionStamp()``).
    var seenStoredSession: StoredSessionStamp?
    /// When a store across the network was last read on the fresh path (its
    /// ``StoredSessionChangeDetection/reread(every:)``).
    var storedSessionCheckedAt: Date?

    /// Creates one user's session on `provider`, kept in `store`. Nothing is fetched until first
    /// needed; what the provider publishes is fetched once for all its sessions.
    public init(provider: OpenIDProvider, store: TokenStore = InMemoryTokenStore()) {
        self.provider = provider
        self.configuration = provider.configuration
        self.store = store
        self.exchange = provider.exchange
        self.clock = provider.clock
        self.log = provider.log
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
    public var tokens: SessionTokens? { current }
}
