import Foundation

/// Discovery: the provider's metadata, fetched once.
extension SessionClient {
    /// The provider's metadata, fetched once and cached. Concurrent callers share one fetch.
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
        var loaded = try ProviderMetadata(data: response.body, expectedIssuer: issuer.absoluteString)
        if loaded.revocationEndpoint == nil {
            loaded.revocationEndpoint = await revocationEndpointFromOAuthMetadata()
        }
        metadata = loaded
        log(.info, "discovery loaded for \(loaded.issuer)")
        return loaded
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
