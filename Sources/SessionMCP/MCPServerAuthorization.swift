import Foundation
import SessionCore

/// Signs in to an MCP server given only its URL, as MCP's authorization specification lays out:
/// the server's challenge, or its well-known metadata (RFC 9728), names the authorization server;
/// that server's metadata is found (RFC 8414, then OpenID discovery) and must offer PKCE S256; the
/// client registers (``MCPClientRegistration``, in MCP's order); the sign-in asks for the scopes
/// the challenge names (else the resource's `scopes_supported`) and for the server's canonical URI
/// as RFC 8707's `resource`, on the authorization and token requests both; RFC 9207's `iss` is
/// checked as the server's metadata says.
///
/// ```swift
/// let authorization = MCPServerAuthorization(serverURL: URL(string: "https://mcp.example.com/mcp")!,
///                                            redirectURI: URL(string: "http://127.0.0.1/callback")!,
///                                            registrations: [.clientIDMetadataDocument(documentURL)])
/// let server = try await authorization.connect(agent: agent)
/// let (response, _) = try await server.send(toolCall, agent: agent)
/// ```
public struct MCPServerAuthorization: Sendable {
    /// The MCP server's URL, as the app was given it.
    public let serverURL: URL
    /// Where the authorization server sends the browser back (a loopback agent's port may vary).
    public let redirectURI: URL
    /// The ways to get a `client_id`, in the app's order; MCP's order decides among those offered.
    public let registrations: [MCPClientRegistration]
    private let transport: HTTPTransport
    private let clock: SessionClock
    private let logger: SessionLogger
    private let store: @Sendable (SessionConfiguration) throws -> TokenStore

    /// The `Accept` field of a request to an MCP server: its streamable HTTP transport answers
    /// JSON or an event stream, and takes requests that accept both.
    static let streamableHTTPAccept = "application/json, text/event-stream"

    /// A sign-in to the MCP server at `serverURL`.
    /// - Parameters:
    ///   - serverURL: the MCP server's URL, as the app was given it (https, http only on loopback).
    ///   - redirectURI: where the authorization server sends the browser back.
    ///   - registrations: the ways to get a `client_id` the app offers.
    ///   - transport: how requests are sent (default: the platform's).
    ///   - clock: the time source for expiry and registrations.
    ///   - logger: receives redacted log lines.
    ///   - store: where the session of a configuration is kept (default: in memory); called once
    ///     the `client_id` and resource are known, so a file store is named after them.
    public init(serverURL: URL, redirectURI: URL, registrations: [MCPClientRegistration],
                transport: HTTPTransport = PlatformDefaults.httpTransport(), clock: SessionClock = SystemClock(),
                logger: SessionLogger = SilentLogger(),
                store: @escaping @Sendable (SessionConfiguration) throws -> TokenStore = { _ in InMemoryTokenStore() }) {
        self.serverURL = serverURL
        self.redirectURI = redirectURI
        self.registrations = registrations
        self.transport = transport
        self.clock = clock
        self.logger = logger
        self.store = store
    }

    /// The server's session: the one its store kept, else a new sign-in through `agent`.
    /// - Parameters:
    ///   - agent: shows the authorization server's page to the user.
    ///   - challenge: the server's challenge, when the app already met one (its
    ///     `resource_metadata` and `scope` are used); otherwise the server is asked once without a token.
    /// - Throws: `invalidConfiguration` for a ``MCPClientRegistration/clientIDMetadataDocument(_:)``
    ///   URL no server takes as a client identifier, before anything is sent;
    ///   `invalidDiscoveryDocument` for a server without metadata or whose metadata names
    ///   no authorization server or another resource; discovery errors of the authorization
    ///   server (`unsupportedProviderFeature` without S256); `unsupportedProviderFeature` when no
    ///   registration in `registrations` is one the server takes; registration and sign-in errors.
    public func connect(agent: AuthorizationAgent, challenge: ResourceChallenge? = nil) async throws -> MCPServerSession {
        for registration in registrations { try registration.checkClientIdentifier() }
        let discovery = ProtectedResourceDiscovery(transport: transport, logger: logger)
        let challenge = if let challenge { challenge } else { try await discovery.challenge(at: serverURL, accept: Self.streamableHTTPAccept) }
        let resource = try await discovery.metadata(for: serverURL, challenge: challenge)
        guard let issuer = resource.authorizationServers.first else {
            throw SessionError(.invalidDiscoveryDocument, process: .configuration,
                               message: "protected resource metadata: the server names no authorization server")
        }
        let server = try await AuthorizationServerDiscovery(transport: transport, logger: logger).metadata(for: issuer)
        let (clientID, authentication) = try await register(at: server, issuer: issuer)
        let configuration = try SessionConfiguration(
            issuer: issuer, clientID: clientID, redirectURI: redirectURI, scopes: challenge?.scope ?? resource.scopesSupported ?? [],
            clientAuthentication: authentication, metadataDiscovery: .authorizationServer, resources: [resource.resource])
        let client = SessionClient(configuration: configuration, store: try store(configuration), transport: transport, clock: clock,
                                   logger: logger)
        if try await client.loadStoredSession() == nil { _ = try await client.signIn(agent: agent) }
        return MCPServerSession(client: client, resource: resource)
    }

    /// The `client_id` to use at `server`, by the first registration in MCP's order that it takes.
    private func register(at server: ProviderMetadata, issuer: URL) async throws -> (String, ClientAuthentication) {
        for case .preRegistered(let clientID, let registeredAt, let authentication) in registrations
            where registeredAt.map({ Exact.equal($0.absoluteString, issuer.absoluteString) }) ?? true {
            return (clientID, authentication)
        }
        if server.clientIDMetadataDocumentSupported {
            for case .clientIDMetadataDocument(let document) in registrations { return (document.absoluteString, .none) }
        }
        if server.registrationEndpoint != nil {
            for case .dynamic(let metadata, let store) in registrations {
                let registered = try await DynamicClientRegistration(transport: transport, clock: clock, logger: logger)
                    .registeredClient(at: server, metadata: metadata, store: store)
                return (registered.clientID, registered.clientAuthentication)
            }
        }
        throw SessionError(.unsupportedProviderFeature, process: .configuration,
                           message: "the authorization server takes none of the client registrations offered")
    }
}
