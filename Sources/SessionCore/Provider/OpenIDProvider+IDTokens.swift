import Foundation

/// ID tokens: checked against the provider's key set, which every session on the provider shares.
extension OpenIDProvider {
    /// Checks an ID token's header, signature (against the provider's key set: see
    /// ``KeySetCache`` for how long keys are kept and how often an unknown key reloads them) and
    /// claims; with `maxAge`, its `auth_time` must be at most that many seconds ago.
    func validateIDToken(_ raw: String, nonce: String?, subject: String?, metadata: ProviderMetadata, maxAge: Int? = nil) async throws -> IDToken {
        let token = try IDToken(raw)
        let validator = IDTokenValidator(issuer: metadata.issuer, clientID: configuration.clientID, clock: clock,
                                         allowedSkew: configuration.allowedClockSkew)
        switch configuration.idTokenSigning {
        case .signed:
            try await validator.verifySignature(token.jws) { reload in try await self.keys(metadata, reload: reload) }
        case .unsigned:
            // Every ID token the client reads comes from the token endpoint's answer.
            try validator.checkUnsigned(token.jws, from: metadata.tokenEndpoint)
        }
        try validator.validateClaims(token, expectedNonce: nonce, expectedSubject: subject, maxAge: maxAge)
        return token
    }

    /// A JWT the provider signed with one of its ID-token keys — a logout token, say — split, its
    /// header checked (an algorithm verified here, no `crit`) and its signature verified against
    /// the provider's key set (reloaded once for an unknown `kid`), its claims not yet checked.
    /// - Throws: the ID-token codes (`idTokenMalformed`, `idTokenUnsupportedAlgorithm`,
    ///   `idTokenUnknownKey`, `idTokenSignatureInvalid`), their messages naming `kind`; discovery
    ///   and key-set errors.
    func verifiedJWT(_ raw: String, kind: String) async throws -> (header: [String: JSONValue], claims: [String: JSONValue]) {
        let malformed = { (why: String) in SessionError(.idTokenMalformed, process: .authentication, message: "\(kind): \(why)") }
        let jws = try CompactJWS(raw, malformed: malformed)
        let claims = try CompactJWS.object(jws.payload, part: "payload", malformed: malformed)
        let metadata = try await discover()
        var validator = IDTokenValidator(issuer: metadata.issuer, clientID: configuration.clientID, clock: clock,
                                         allowedSkew: configuration.allowedClockSkew)
        validator.kind = kind
        try await validator.verifySignature(jws) { reload in try await self.keys(metadata, reload: reload) }
        return (jws.header, claims)
    }

    /// The provider's keys: the cached set while fresh, else a fetched one. With `reload`, a
    /// fresh fetch or, when the set was fetched too recently to fetch it again, the set as it is
    /// now: another session may have reloaded it since this one looked. Sessions that ask at once
    /// share one fetch.
    private func keys(_ metadata: ProviderMetadata, reload: Bool) async throws -> JSONWebKeySet? {
        let started = clock.now()
        if let cache = documents.withLock({ $0.keySetCache }) {
            if !reload, cache.isFresh(at: started) { return cache.keys }
            if reload, !cache.mayReload(at: started) { return cache.keys }
        }
        return try await keySetFlight.run { try await self.fetchKeys(metadata, reload: reload, askedAt: started) }
    }

    /// Fetches the key set, unless a fetch that ended while this one waited already did.
    private func fetchKeys(_ metadata: ProviderMetadata, reload: Bool, askedAt: Date) async throws -> JSONWebKeySet? {
        if let cache = documents.withLock({ $0.keySetCache }), cache.fetchedAt >= askedAt || (!reload && cache.isFresh(at: clock.now())) {
            return cache.keys
        }
        guard let jwksURI = metadata.jwksURI else {
            throw SessionError(.idTokenUnknownKey, process: .authentication,
                               message: "the authorization server publishes no signing keys (no 'jwks_uri'), so its signed tokens cannot be checked")
        }
        let now = clock.now()
        let response = try await exchange.fetchDocument(jwksURI, process: .authentication, purpose: "JWKS")
        guard response.status == 200 else { throw ProviderExchange.statusError(response, process: .authentication, purpose: "JWKS") }
        let cache = KeySetCache(keys: try JSONWebKeySet(data: response.body), fetchedAt: now, cacheControl: response.header("Cache-Control"))
        documents.withLock { documents in
            documents.keySetCache = cache
            documents.keySetDocument = KeySetCache.forbidsStoring(cacheControl: response.header("Cache-Control")) ? nil : response.body
        }
        await saveProviderDocuments()
        return cache.keys
    }
}
