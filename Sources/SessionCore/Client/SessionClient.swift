import Foundation

/// The OpenID Connect client: discovery, authorization code + PKCE, token validation, refresh,
/// UserInfo, the permission center and sign-out. All protocol logic of SessionService lives here.
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
public actor SessionClient {
    /// The configuration the client was created with.
    public nonisolated let configuration: SessionConfiguration
    let store: TokenStore
    let exchange: ProviderExchange
    nonisolated let clock: SessionClock
    let log: LogSink

    var metadata: ProviderMetadata?
    /// The discovery document's bytes and lifetime, and the key set's bytes, kept for the store
    /// (``ProviderDocumentStore``).
    var discoveryDocument: (data: Data, expiresAt: Date)?
    var keySetDocument: Data?
    /// The RFC 8414 document's revocation endpoint once asked for (`.some(nil)`: it names none).
    var oauthRevocationEndpoint: URL??
    let metadataFlight = SingleFlight<ProviderMetadata>()
    var keySetCache: KeySetCache?
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

    /// Creates a client. Nothing is fetched until first needed.
    /// - Parameters:
    ///   - configuration: the provider and app settings.
    ///   - store: where tokens are kept (default: in memory only).
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
        self.configuration = configuration
        self.store = store
        self.exchange = ProviderExchange(transport: transport, log: LogSink(logger))
        self.clock = clock
        self.log = LogSink(logger)
    }

    /// The tokens of the current session, without refreshing; nil when signed out.
    public var tokens: SessionTokens? { current }
}
