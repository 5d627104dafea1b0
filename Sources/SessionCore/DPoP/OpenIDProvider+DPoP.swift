import Foundation

/// DPoP (RFC 9449) at the provider, for every session and flow on it: which sign-ins get a key,
/// the proofs on their requests, the servers' nonces (remembered per origin, for all of them), the
/// one way a request with a proof is sent, and what a token response must say to a request that
/// carried one.
extension OpenIDProvider {
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
        let nonce = dpopNonces.withLock { $0.nonce(for: url) }
        return try DPoPProof.make(key: key, method: method, url: url, accessToken: accessToken, nonce: nonce, now: clock.now())
    }

    /// Remembers the `DPoP-Nonce` `response` from `url` carries; true when it is new.
    @discardableResult
    func learnNonce(from response: HTTPResponse, of url: URL) -> Bool {
        guard let nonce = DPoPNonce.parse(response.header(DPoPNonce.header)) else { return false }
        return dpopNonces.withLock { $0.learn(nonce, from: url) }
    }

    /// The one way a request with a proof is sent: `request` with a proof made with `key` (for a
    /// resource request, one over `accessToken` too), sent once more when the server answers
    /// `use_dpop_nonce` with a nonce it had not given — an authorization server's 400 (RFC 9449 §8)
    /// or a resource server's 401 `DPoP` challenge (§9) — since the request was not processed.
    /// Every nonce an answer carries is remembered for the next request to that server, the
    /// retry's too (§8.2). Without a key, `request` goes as it is.
    func attemptProved(_ request: HTTPRequest, key: DPoPKey?, accessToken: String? = nil, purpose: String) async throws
        -> Result<HTTPResponse, HTTPTransportError> {
        let first = await exchange.attempt(try proving(request, with: key, accessToken: accessToken), purpose: purpose)
        guard key != nil, case .success(let response) = first, learnNonce(from: response, of: request.url),
              Self.asksForDPoPNonce(response) else { return first }
        log(.info, "\(purpose): the server asks for its DPoP nonce; sending once more with it")
        let second = await exchange.attempt(try proving(request, with: key, accessToken: accessToken), purpose: purpose)
        if case .success(let answer) = second { learnNonce(from: answer, of: request.url) }
        return second
    }

    /// True for a `use_dpop_nonce` answer: an authorization server's error (400), or a resource
    /// server's `DPoP` challenge (401). Either says the request was not processed.
    static func asksForDPoPNonce(_ response: HTTPResponse) -> Bool {
        switch response.status {
        case 400: Exact.equal(OAuthErrorResponse(json: response.body)?.error, "use_dpop_nonce")
        case 401: Exact.equal(response.header("WWW-Authenticate").flatMap { OAuthErrorResponse(challenge: $0, scheme: "DPoP") }?.error,
                              "use_dpop_nonce")
        default: false
        }
    }

    /// As ``attemptProved(_:key:accessToken:purpose:)``; a transport failure throws the matching
    /// error, attributed to `process`.
    func sendProved(_ request: HTTPRequest, key: DPoPKey?, accessToken: String? = nil, process: SessionError.Process,
                    purpose: String) async throws -> HTTPResponse {
        switch try await attemptProved(request, key: key, accessToken: accessToken, purpose: purpose) {
        case .success(let response): return response
        case .failure(let failure): throw ProviderExchange.sessionError(failure, process: process, purpose: purpose)
        }
    }

    /// Sends `request` to a resource server with `token`: with `key`, as `Authorization: DPoP` and a
    /// proof over the token (RFC 9449 §7, through the one proved send path); without, as `Bearer`.
    func sendResource(_ request: HTTPRequest, token: String, key: DPoPKey?, process: SessionError.Process,
                      purpose: String) async throws -> HTTPResponse {
        try await sendProved(request.authorized(with: token, scheme: key == nil ? "Bearer" : "DPoP"), key: key,
                             accessToken: key == nil ? nil : token, process: process, purpose: purpose)
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
