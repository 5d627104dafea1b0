import Foundation

/// Discovery: the provider's metadata, fetched once, in one request.
extension SessionClient {
    /// The provider's metadata, from one request to its OpenID Connect discovery document, fetched
    /// once and cached; concurrent callers share one fetch. (Its RFC 8414 document is read only
    /// when a revocation needs an endpoint this one does not name: see ``revocationEndpoint()``.)
    /// - Throws: `invalidDiscoveryDocument`, `issuerMismatch`, `unsupportedProviderFeature`, or a
    ///   transport error, all with process `configuration`.
    public func discover() async throws -> ProviderMetadata {
        if let metadata { return metadata }
        return try await metadataFlight.run { try await self.loadMetadata() }
    }

    private func loadMetadata() async throws -> ProviderMetadata {
        let issuer = configuration.issuer
        let request = HTTPRequest(method: "GET", url: ProviderMetadata.discoveryURL(issuer: issuer), headers: ["Accept": "application/json"])
        let response = try await exchange.send(request, process: .configuration, purpose: "discovery")
        guard response.status == 200 else {
            throw SessionError(.invalidDiscoveryDocument, process: .configuration,
                               message: "discovery: the provider answered with an error status", httpStatus: response.status)
        }
        let loaded = try ProviderMetadata(data: response.body, expectedIssuer: issuer.absoluteString)
        metadata = loaded
        log(.info, "discovery loaded for \(loaded.issuer)")
        return loaded
    }

    /// The provider's RFC 7009 revocation endpoint: the discovery document's, or — only when that
    /// names none — the one its RFC 8414 authorization-server metadata names for the same issuer
    /// (django-oauth-toolkit names it only there). That second document is asked for once, the
    /// first time a revocation needs it; nil when neither names one.
    /// - Throws: discovery errors.
    public func revocationEndpoint() async throws -> URL? {
        let metadata = try await discover()
        if let endpoint = metadata.revocationEndpoint { return endpoint }
        if let known = oauthRevocationEndpoint { return known }
        let found = await revocationEndpointFromOAuthMetadata()
        oauthRevocationEndpoint = .some(found)
        return found
    }

    /// RFC 8414 metadata is optional: any failure here only means no revocation endpoint.
    private func revocationEndpointFromOAuthMetadata() async -> URL? {
        for url in ProviderMetadata.oauthMetadataURLs(issuer: configuration.issuer) {
            let request = HTTPRequest(method: "GET", url: url, headers: ["Accept": "application/json"])
            guard case .success(let response) = await exchange.attempt(request, purpose: "OAuth metadata"),
                  response.status == 200 else { continue }
            if let endpoint = ProviderMetadata.revocationEndpoint(fromOAuthMetadata: response.body,
                                                                  expectedIssuer: configuration.issuer.absoluteString) {
                return endpoint
            }
        }
        return nil
    }
}
