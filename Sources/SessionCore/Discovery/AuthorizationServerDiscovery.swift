import Foundation

/// Finds an OAuth 2.0 authorization server's metadata from its issuer alone, as a client that
/// learned the issuer from a protected resource must (``MetadataDiscovery/authorizationServer``):
/// the first of ``ProviderMetadata/metadataURLs(forAuthorizationServer:)`` that has a document, read
/// by its kind's rules, S256 required to be listed. A client that knows its `client_id` gets the
/// same through its ``OpenIDProvider``; this is for choosing how to register before it has one.
public struct AuthorizationServerDiscovery: Sendable {
    private let exchange: ProviderExchange

    /// A discovery that sends its requests through `transport`, logging to `logger`.
    public init(transport: HTTPTransport = PlatformDefaults.httpTransport(), logger: SessionLogger = SilentLogger()) {
        exchange = ProviderExchange(transport: transport, log: LogSink(logger))
    }

    init(exchange: ProviderExchange) {
        self.exchange = exchange
    }

    /// The metadata of the authorization server `issuer`.
    /// - Throws: `invalidConfiguration` for an issuer that is not https (http only on loopback)
    ///   or has a query or fragment; `invalidDiscoveryDocument` when no place has a document, or a
    ///   place answers with a 5xx; `issuerMismatch`; `unsupportedProviderFeature` without S256;
    ///   transport errors. All with process `configuration`.
    public func metadata(for issuer: URL) async throws -> ProviderMetadata {
        guard ProtectedResourceMetadata.isResourceIdentifier(issuer) else {
            throw SessionError(.invalidConfiguration, process: .configuration,
                               message: "the authorization server '\(Redaction.url(issuer))' must be https (http only on loopback) without query or fragment")
        }
        return try await fetch(issuer).metadata
    }

    /// The metadata and the answer that carried it.
    func fetch(_ issuer: URL) async throws -> (metadata: ProviderMetadata, response: HTTPResponse) {
        for url in ProviderMetadata.metadataURLs(forAuthorizationServer: issuer) {
            let response = try await exchange.fetchDocument(url, process: .configuration, purpose: "discovery")
            // A server without a document at this place answers 4xx: the next place is asked.
            if (400..<500).contains(response.status) { continue }
            guard response.status == 200 else {
                throw SessionError(.invalidDiscoveryDocument, process: .configuration,
                                   message: "discovery: the authorization server answered with an error status", httpStatus: response.status)
            }
            let document: ProviderMetadata.Document = url.path.hasPrefix("/.well-known/oauth-authorization-server")
                ? .oauthAuthorizationServer : .openIDConfiguration
            return (try ProviderMetadata(data: response.body, expectedIssuer: issuer.absoluteString, document: document,
                                         requiringPKCEListed: true), response)
        }
        throw SessionError(.invalidDiscoveryDocument, process: .configuration,
                           message: "discovery: the authorization server has no metadata at any of its well-known places")
    }
}
