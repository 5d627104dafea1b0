import Foundation

/// One client registration at one OpenID provider: the configuration, how requests are sent, the
/// time source, and what the provider publishes — its discovery document and key set — fetched
/// once and shared by every session on it.
///
/// A ``SessionClient`` is one user's session on a provider. A server that keeps a session per
/// user makes one provider and a `SessionClient(provider:store:)` per session: however many
/// sessions there are, the provider's documents are asked for once (concurrent askers share one
/// request), a key rotation one session sees is seen by all, and an ID token signed with an unknown
/// key makes one key-set request however many sessions meet it.
///
/// ```swift
/// let provider = OpenIDProvider(configuration: configuration)
/// let alice = SessionClient(provider: provider, store: aliceStore)
/// let bob = SessionClient(provider: provider, store: bobStore)
/// ```
///
/// Its methods may be called from any task; the documents are kept behind a lock, and reading a
/// fresh one never waits.
public final class OpenIDProvider: Sendable {
    /// What the provider publishes, as far as it is known.
    struct Documents: Sendable {
        var metadata: ProviderMetadata?
        /// The discovery document's bytes and lifetime, and the key set's bytes, kept for a
        /// ``ProviderDocumentStore``.
        var discoveryDocument: (data: Data, expiresAt: Date)?
        var keySetDocument: Data?
        var keySetCache: KeySetCache?
        /// The RFC 8414 document's revocation endpoint once asked for (`.some(nil)`: it names none).
        var oauthRevocationEndpoint: URL??
    }

    /// The provider and app settings.
    public let configuration: SessionConfiguration
    let exchange: ProviderExchange
    package let clock: SessionClock
    package let log: LogSink
    /// Where the documents are kept across runs, if anywhere.
    let documentStore: (any ProviderDocumentCache)?
    let documents = Locked(Documents())
    let metadataFlight = SingleFlight<ProviderMetadata>()
    let keySetFlight = SingleFlight<JSONWebKeySet?>()
    /// The sealed authorizations finished here, by a digest of their `state`, until they expire:
    /// each is finished once on this provider.
    let finishedSealedAuthorizations = Locked<[String: Date]>([:])
    /// The DPoP nonces the servers gave, for every session and flow on this provider.
    let dpopNonces = Locked(DPoPNonces())

    /// Creates a provider. Nothing is fetched until first needed.
    /// - Parameters:
    ///   - configuration: the provider and app settings.
    ///   - transport: how requests are sent (default: ``PlatformDefaults/httpTransport()``: libcurl on Linux, `URLSession` on Apple platforms).
    ///   - clock: the time source for document lifetimes and ID-token checks.
    ///   - logger: receives redacted log lines.
    ///   - documentStore: keeps the discovery document and key set across runs, so a later
    ///     process makes no request while they are fresh — one file for every session of a server
    ///     with ``FileProviderDocumentCache`` (default: none; the documents live as long as the
    ///     provider).
    public init(configuration: SessionConfiguration, transport: HTTPTransport = PlatformDefaults.httpTransport(),
                clock: SessionClock = SystemClock(), logger: SessionLogger = SilentLogger(),
                documentStore: (any ProviderDocumentCache)? = nil) {
        self.configuration = configuration
        let log = LogSink(logger)
        self.exchange = ProviderExchange(transport: transport, log: log)
        self.clock = clock
        self.log = log
        self.documentStore = documentStore
    }

    private func assertionAudience(_ metadata: ProviderMetadata) -> String {
        switch configuration.clientAssertionAudience {
        case .tokenEndpoint: metadata.tokenEndpoint.absoluteString
        case .issuer: metadata.issuer
        }
    }

    /// The metadata when it is known, without a request or a wait: the hot path of every call.
    var knownMetadata: ProviderMetadata? { documents.withLock { $0.metadata } }

    /// A form post to the token or revocation endpoint, with the client's authentication
    /// (``SessionConfiguration/clientAuthentication``); a client assertion names the token
    /// endpoint of `metadata`, or its issuer, as its audience
    /// (``SessionConfiguration/clientAssertionAudience``).
    func clientRequest(_ url: URL, _ parameters: [(String, String)], metadata: ProviderMetadata, process: SessionError.Process) throws -> HTTPRequest {
        do {
            return try configuration.clientAuthentication.request(url, clientID: configuration.clientID, parameters,
                                                                  audience: assertionAudience(metadata), now: clock.now())
        } catch let error as SessionError {
            throw error.in(process)
        }
    }
}
