import Foundation

/// Discovery: the provider's metadata, fetched once, in one request, for every session on it.
extension OpenIDProvider {
    /// The provider's metadata, from one request to its OpenID Connect discovery document (for an
    /// OAuth 2.0 authorization server, ``MetadataDiscovery/authorizationServer``: from the first
    /// of its well-known places that has one), fetched once and cached; concurrent callers share
    /// one fetch. (An OpenID provider's RFC 8414 document is read only when a revocation needs an
    /// endpoint its discovery document does not name: see ``revocationEndpoint()``.)
    ///
    /// The provider's document store (``FileProviderDocumentCache``, or a ``FileTokenStore``) saves
    /// the document and the key set, and a later process reuses them without a request while they
    /// are fresh: for the lifetime the provider's `Cache-Control: max-age` gave them, within five
    /// minutes and one day, one hour when it gave none; never one it sent with `no-store`. Read
    /// back, they are checked as strictly as when they were received.
    /// - Throws: `invalidDiscoveryDocument`, `issuerMismatch`, `unsupportedProviderFeature`, or a
    ///   transport error, all with process `configuration`.
    public func discover() async throws -> ProviderMetadata {
        if let metadata = knownMetadata { return metadata }
        return try await metadataFlight.run { try await self.loadMetadata() }
    }

    private func loadMetadata() async throws -> ProviderMetadata {
        // A caller that waited behind the fetch that just ended finds its result.
        if let metadata = knownMetadata { return metadata }
        if let stored = await adoptStoredDocuments() { return stored }
        let (loaded, response) = try await fetchMetadata()
        let now = clock.now()
        let cacheControl = response.header("Cache-Control")
        documents.withLock { documents in
            documents.metadata = loaded
            documents.discoveryDocument = KeySetCache.forbidsStoring(cacheControl: cacheControl)
                ? nil : (response.body, now.addingTimeInterval(KeySetCache.lifetime(cacheControl: cacheControl)))
        }
        log(.info, "discovery loaded for \(loaded.issuer)")
        await saveProviderDocuments()
        return loaded
    }

    /// The metadata and the answer that carried it, from where ``SessionConfiguration/metadataDiscovery`` says.
    private func fetchMetadata() async throws -> (ProviderMetadata, HTTPResponse) {
        let issuer = configuration.issuer
        switch configuration.metadataDiscovery {
        case .openIDConnect:
            // OpenID Connect Discovery §4: the document is at the issuer's own URL, never elsewhere.
            let response = try await exchange.fetchDocument(ProviderMetadata.discoveryURL(issuer: issuer), process: .configuration, purpose: "discovery")
            guard response.status == 200 else {
                throw SessionError(.invalidDiscoveryDocument, process: .configuration,
                                   message: "discovery: the provider answered with an error status", httpStatus: response.status)
            }
            return (try ProviderMetadata(data: response.body, expectedIssuer: issuer.absoluteString), response)
        case .authorizationServer:
            return try await AuthorizationServerDiscovery(exchange: exchange).fetch(issuer)
        }
    }

    /// Reads a stored metadata document by the rules it was received under (an OAuth 2.0
    /// authorization server's by the RFC 8414 document's, which require less than OpenID's).
    private func storedMetadata(_ data: Data) -> ProviderMetadata? {
        let issuer = configuration.issuer.absoluteString
        switch configuration.metadataDiscovery {
        case .openIDConnect: return try? ProviderMetadata(data: data, expectedIssuer: issuer)
        case .authorizationServer:
            return try? ProviderMetadata(data: data, expectedIssuer: issuer, document: .oauthAuthorizationServer, requiringPKCEListed: true)
        }
    }

    /// The metadata of the documents the store kept, adopted with the key set when they are this
    /// issuer's, still fresh and still valid; nil otherwise.
    private func adoptStoredDocuments() async -> ProviderMetadata? {
        guard let documentStore, let documents = await documentStore.loadProviderDocuments() else { return nil }
        let now = clock.now()
        // A lifetime beyond the longest one given (a clock set back, a file edited) is not trusted.
        let latest = now.addingTimeInterval(KeySetCache.maximumLifetime)
        guard Exact.equal(documents.issuer, configuration.issuer.absoluteString), now < documents.discoveryExpiresAt,
              documents.discoveryExpiresAt <= latest,
              let stored = storedMetadata(documents.discovery) else { return nil }
        var keySet: (KeySetCache, Data)?
        if let data = documents.keySet, let fetchedAt = documents.keySetFetchedAt, let expiresAt = documents.keySetExpiresAt,
           fetchedAt <= now, now < expiresAt, expiresAt <= fetchedAt.addingTimeInterval(KeySetCache.maximumLifetime),
           let keys = try? JSONWebKeySet(data: data) {
            keySet = (KeySetCache(keys: keys, fetchedAt: fetchedAt, expiresAt: expiresAt), data)
        }
        self.documents.withLock { known in
            known.metadata = stored
            known.discoveryDocument = (documents.discovery, documents.discoveryExpiresAt)
            if let keySet {
                known.keySetCache = keySet.0
                known.keySetDocument = keySet.1
            }
        }
        log(.info, "discovery\(keySet == nil ? "" : " and key set") reused from the store for \(stored.issuer)")
        return stored
    }

    /// Hands the documents received so far to a store that keeps them.
    func saveProviderDocuments() async {
        let known = documents.value
        guard let documentStore, let discoveryDocument = known.discoveryDocument else { return }
        await documentStore.saveProviderDocuments(ProviderDocuments(
            issuer: configuration.issuer.absoluteString, discovery: discoveryDocument.data, discoveryExpiresAt: discoveryDocument.expiresAt,
            keySet: known.keySetDocument, keySetFetchedAt: known.keySetDocument.flatMap { _ in known.keySetCache?.fetchedAt },
            keySetExpiresAt: known.keySetDocument.flatMap { _ in known.keySetCache?.expiresAt }))
    }

    /// The provider's RFC 7009 revocation endpoint: the discovery document's, or — only when that
    /// names none — the one its RFC 8414 authorization-server metadata names for the same issuer
    /// (django-oauth-toolkit names it only there). That second document is asked for once, the
    /// first time a revocation needs it; nil when neither names one.
    /// - Throws: discovery errors.
    public func revocationEndpoint() async throws -> URL? {
        let metadata = try await discover()
        if let endpoint = metadata.revocationEndpoint { return endpoint }
        if let known = documents.withLock({ $0.oauthRevocationEndpoint }) { return known }
        let found = await revocationEndpointFromOAuthMetadata()
        documents.withLock { $0.oauthRevocationEndpoint = .some(found) }
        return found
    }

    /// RFC 8414 metadata is optional: any failure here only means no revocation endpoint.
    private func revocationEndpointFromOAuthMetadata() async -> URL? {
        for url in ProviderMetadata.oauthMetadataURLs(issuer: configuration.issuer) {
            var request = HTTPRequest(method: "GET", url: url, headers: ["Accept": "application/json"])
            request.redirects = .withinOrigin
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
