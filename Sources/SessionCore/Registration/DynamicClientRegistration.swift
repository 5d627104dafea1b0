import Foundation

/// OAuth 2.0 Dynamic Client Registration (RFC 7591): a client registers itself at an
/// authorization server's `registration_endpoint` and gets a `client_id`, without a console.
///
/// Registrations are kept per authorization server in a ``ClientRegistrationStore`` and reused
/// until they expire: ``registeredClient(at:metadata:store:initialAccessToken:)``.
public struct DynamicClientRegistration: Sendable {
    private let exchange: ProviderExchange
    private let clock: SessionClock

    /// A registration that sends its requests through `transport`, logging to `logger`.
    public init(transport: HTTPTransport = PlatformDefaults.httpTransport(), clock: SessionClock = SystemClock(),
                logger: SessionLogger = SilentLogger()) {
        exchange = ProviderExchange(transport: transport, log: LogSink(logger))
        self.clock = clock
    }

    /// The client registered at the server `metadata` describes: the one `store` keeps for its
    /// issuer while it has not expired, else a new registration, saved in `store` first.
    /// - Throws: as ``register(at:metadata:initialAccessToken:)``; `storageFailed` when the
    ///   store cannot keep it.
    public func registeredClient(at server: ProviderMetadata, metadata: ClientMetadata, store: any ClientRegistrationStore,
                                 initialAccessToken: String? = nil) async throws -> RegisteredClient {
        if let kept = try await store.loadRegistration(issuer: server.issuer), !kept.isExpired(at: clock.now()),
           metadata.redirectURIs.allSatisfy({ uri in Exact.contains(kept.redirectURIs.map(\.absoluteString), uri.absoluteString) }) {
            return kept
        }
        let registered = try await register(at: server, metadata: metadata, initialAccessToken: initialAccessToken)
        try await store.saveRegistration(registered)
        return registered
    }

    /// Registers a client with `metadata` at the server `server` describes (RFC 7591 §3.1), with
    /// `initialAccessToken` as a Bearer token when the server hands those out.
    /// - Throws: `unsupportedProviderFeature` when the server has no `registration_endpoint`; an
    ///   OAuth error for a refusal (`invalid_redirect_uri` and `invalid_client_metadata` as
    ///   `oauthError`); `invalidResponse` for an answer without a `client_id`, or one that
    ///   registered other redirect URIs than asked; transport errors. All with process `configuration`.
    public func register(at server: ProviderMetadata, metadata: ClientMetadata, initialAccessToken: String? = nil) async throws -> RegisteredClient {
        guard let endpoint = server.registrationEndpoint else {
            throw SessionError(.unsupportedProviderFeature, process: .configuration, message: "the authorization server takes no dynamic client registration")
        }
        var headers = ["Content-Type": "application/json", "Accept": "application/json"]
        if let initialAccessToken { headers["Authorization"] = "Bearer \(initialAccessToken)" }
        let request = HTTPRequest(method: "POST", url: endpoint, headers: headers, body: metadata.json, followsRedirects: false)
        let response = try await exchange.send(request, process: .configuration, purpose: "client registration")
        guard response.status == 201 || response.status == 200 else {
            throw ProviderExchange.statusError(response, process: .configuration, purpose: "client registration")
        }
        let registered = try RegisteredClient(registrationResponse: response.body, issuer: server.issuer, metadata: metadata)
        exchange.log(.info, "client registered at \(server.issuer): \(registered)")
        return registered
    }
}
