import Foundation

/// DPoP (RFC 9449): which sessions get a key, the proofs on their requests, the servers' nonces,
/// and what a token response must say to a request that carried a proof.
extension SessionClient {
    /// A fresh key for a new session, when the configuration and the provider's metadata call
    /// for DPoP (``SessionConfiguration/dpop``); nil for Bearer tokens.
    /// - Throws: `unsupportedProviderFeature` when DPoP is required and the provider lists proof
    ///   algorithms without ES256; `cryptoFailure`.
    func newDPoPKey(metadata: ProviderMetadata) throws -> DPoPKey? {
        let algorithms = metadata.dpopSigningAlgValuesSupported
        switch configuration.dpop {
        case .off:
            return nil
        case .whenSupported:
            guard let algorithms, Exact.contains(algorithms, "ES256") else { return nil }
        case .required:
            if let algorithms, !Exact.contains(algorithms, "ES256") {
                throw SessionError(.unsupportedProviderFeature, process: .authentication,
                                   message: "DPoP is required, but the provider's dpop_signing_alg_values_supported lacks ES256")
            }
        }
        return try DPoPKey.generate()
    }

    /// The key `tokens` are bound to; nil for Bearer tokens.
    /// - Throws: `reauthenticationRequired` when the key is unreadable, or the tokens are DPoP
    ///   tokens without one: they are never sent unbound.
    func dpopKey(of tokens: SessionTokens) throws -> DPoPKey? {
        if let material = tokens.dpopKeyMaterial {
            if let loaded = state.loadedDPoPKey, loaded.material == material { return loaded }
            let key = try DPoPKey(material: material)
            state.keep(key)
            return key
        }
        if let type = tokens.tokenType, ASCII.equalIgnoringCase(type, "DPoP") {
            throw SessionError(.reauthenticationRequired, process: .authentication,
                               message: "the session's tokens are DPoP-bound but its key is missing; sign in again")
        }
        return nil
    }

    /// The key of `tokens`, the current session's; when it cannot be used the session is ended
    /// (store included: its tokens could only be sent unbound) and the error thrown.
    func dpopKeyOrEnd(_ tokens: SessionTokens) async throws -> DPoPKey? {
        do {
            return try dpopKey(of: tokens)
        } catch let error as SessionError {
            try await endLocalSession(process: .authentication)
            log(.warning, "the session ended: \(error.message)")
            emit(.sessionLost(error))
            throw error
        }
    }

    /// `request` with a `DPoP` proof made with `key` (any earlier proof replaced), carrying the
    /// nonce its server gave last and, for a resource request, the hash of `accessToken`;
    /// `request` as it is without a key.
    func proving(_ request: HTTPRequest, with key: DPoPKey?, accessToken: String? = nil) throws -> HTTPRequest {
        guard let key else { return request }
        var proved = request
        proved.headers = request.headers.filter { !ASCII.equalIgnoringCase($0.key, "DPoP") }
        proved.headers["DPoP"] = try proof(key, method: request.method, url: request.url, accessToken: accessToken)
        return proved
    }

    /// A proof for `method` to `url`, with the nonce of `url`'s server when it gave one.
    func proof(_ key: DPoPKey, method: String, url: URL, accessToken: String?) throws -> String {
        let nonce = dpopNonces.nonce(for: url)
        return try DPoPProof.make(key: key, method: method, url: url, accessToken: accessToken, nonce: nonce, now: clock.now())
    }

    /// Remembers the `DPoP-Nonce` `response` from `url` carries; true when it is new.
    @discardableResult
    func learnNonce(from response: HTTPResponse, of url: URL) -> Bool {
        guard let nonce = DPoPNonce.parse(response.header(DPoPNonce.header)) else { return false }
        return dpopNonces.learn(nonce, from: url)
    }

    /// Sends an authorization server request (token endpoint, pushed request) with a proof made
    /// with `key`, and once more when the server answers `use_dpop_nonce` with a nonce it had not
    /// given before (RFC 9449 §8): that answer says the request was not processed.
    func attemptProved(_ request: HTTPRequest, key: DPoPKey?, purpose: String) async throws -> Result<HTTPResponse, HTTPTransportError> {
        let first = await exchange.attempt(try proving(request, with: key), purpose: purpose)
        guard key != nil, case .success(let response) = first, learnNonce(from: response, of: request.url),
              Self.asksForDPoPNonce(response) else { return first }
        log(.info, "\(purpose): the server asks for its DPoP nonce; sending once more with it")
        let second = await exchange.attempt(try proving(request, with: key), purpose: purpose)
        // A server that rotates its nonces gives the next one here (§8.2): the next call uses it.
        if case .success(let response) = second { learnNonce(from: response, of: request.url) }
        return second
    }

    /// True for an authorization server's `use_dpop_nonce` answer (RFC 9449 §8), which says the
    /// request was not processed: nothing it carried was spent.
    static func asksForDPoPNonce(_ response: HTTPResponse) -> Bool {
        response.status == 400 && Exact.equal(OAuthErrorResponse(json: response.body)?.error, "use_dpop_nonce")
    }

    /// As ``attemptProved(_:key:purpose:)``; a transport failure throws the matching error.
    func sendProved(_ request: HTTPRequest, key: DPoPKey?, process: SessionError.Process, purpose: String) async throws -> HTTPResponse {
        switch try await attemptProved(request, key: key, purpose: purpose) {
        case .success(let response): return response
        case .failure(let failure): throw ProviderExchange.sessionError(failure, process: process, purpose: purpose)
        }
    }

    /// The key the session keeps after `response` answered a request proved with `key` (nil:
    /// Bearer tokens).
    /// - Throws: `invalidResponse` for DPoP tokens to a request without a proof, and for Bearer
    ///   tokens to one with a proof unless ``SessionConfiguration/acceptsBearerForDPoP``.
    func binding(of response: TokenResponse, provedWith key: DPoPKey?, purpose: String) throws -> DPoPKey.Material? {
        switch (key, response.isDPoPBound) {
        case (nil, false):
            return nil
        case (nil, true):
            throw SessionError(.invalidResponse, process: .authentication,
                               message: "\(purpose): the provider sent DPoP tokens to a request without a DPoP proof")
        case (let key?, true):
            return key.material
        case (.some, false):
            guard configuration.acceptsBearerForDPoP else {
                throw SessionError(.invalidResponse, process: .authentication,
                                   message: "\(purpose): the provider answered a DPoP request with Bearer tokens (SessionConfiguration.acceptsBearerForDPoP would take them)")
            }
            log(.warning, "\(purpose): the provider answered a DPoP request with Bearer tokens; kept as Bearer, as configured")
            return nil
        }
    }
}
