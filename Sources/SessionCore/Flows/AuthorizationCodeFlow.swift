import Foundation

/// The authorization code flow with PKCE (RFC 6749 §4.1, RFC 7636) at a provider: it builds a
/// request — pushed first when the configuration or the provider asks for it (RFC 9126), its code
/// bound to a fresh DPoP key when asked (RFC 9449 §10) — and turns a checked response into
/// validated tokens. Where the pending request waits in between (a session's memory, the
/// browser's sealed cookie, a store the servers share) is its caller's choice; the tokens go to a
/// session through its `adopt`.
struct AuthorizationCodeFlow: Sendable {
    let provider: OpenIDProvider

    private var configuration: SessionConfiguration { provider.configuration }

    /// A fresh request for `scopes` (nil: the configuration's defaults) sent with `redirectURI`,
    /// not yet pending anywhere. With DPoP its code is bound to a fresh key when `bindingCode`
    /// (the key stays with the request, in memory); otherwise the exchange makes the key.
    /// - Throws: `invalidConfiguration` for bad scopes, or a redirect URI that differs from the
    ///   configured one in more than its loopback port (RFC 8252 §7.3); discovery errors;
    ///   `cryptoFailure`; the pushed request's errors.
    func makeRequest(scopes: [String]?, redirectURI: URL, bindingCode: Bool, stepUp: StepUp? = nil,
                     subject: String? = nil) async throws -> AuthorizationRequest {
        let scopes = try configuration.requestedScopes(scopes, allowingNone: false)
        guard Exact.equal(redirectURI.absoluteString, configuration.redirectURI.absoluteString)
            || URLRules.isLoopbackPortVariant(redirectURI, of: configuration.redirectURI) else {
            throw SessionError(.invalidConfiguration, process: .authentication,
                               message: "the agent's redirect URI differs from the configured one in more than its loopback port")
        }
        let metadata = try await provider.discover()
        let key = bindingCode ? try provider.newDPoPKey(metadata: metadata) : nil
        let request = try AuthorizationRequest(configuration: configuration, metadata: metadata, scopes: scopes, redirectURI: redirectURI,
                                               dpopKey: key, stepUp: stepUp, subject: subject)
        return try PushedAuthorization.isUsed(configuration: configuration, metadata: metadata) ? try await pushed(request, metadata: metadata) : request
    }

    /// The tokens `response` (checked against `request`) is exchanged for: the code exchange with
    /// the PKCE verifier, the DPoP binding checked, the ID token validated against the request's
    /// `nonce`.
    /// - Throws: token endpoint, DPoP and ID-token errors; `idTokenMissing` when `openid` was asked
    ///   for and no ID token came.
    func exchange(_ response: AuthorizationResponse, for request: AuthorizationRequest) async throws -> SessionTokens {
        let metadata = try await provider.discover()
        let form = try provider.clientRequest(metadata.tokenEndpoint, [
            ("grant_type", "authorization_code"),
            ("code", response.code),
            ("redirect_uri", request.redirectURI.absoluteString),
            ("code_verifier", request.pkce.verifier),
        ] + configuration.resourceParameters + configuration.sortedTokenRequestParameters, metadata: metadata, process: .authentication)
        let key = try request.dpopKey ?? provider.newDPoPKey(metadata: metadata)
        let answer = try await provider.sendProved(form, key: key, process: .authentication, purpose: "code exchange")
        let tokenResponse = try TokenResponse(response: answer, purpose: "code exchange")
        let binding = try provider.binding(of: tokenResponse, provedWith: key, purpose: "code exchange")
        var subject: String?
        if let idToken = tokenResponse.idToken {
            subject = try await provider.validateIDToken(idToken, nonce: request.nonce, subject: request.expectedSubject, metadata: metadata,
                                                         maxAge: request.maxAge).subject
        } else if request.requestsIDToken {
            throw SessionError(.idTokenMissing, process: .authentication, message: "code exchange: the response has no ID token, though openid was asked for (for plain OAuth 2.0, ask for scopes without openid)")
        }
        return tokenResponse.sessionTokens(receivedAt: provider.clock.now(), requestedScopes: request.scopes, subject: subject).bound(to: binding)
            .issued(for: configuration.resourceIndicators)
    }

    /// Pushes `request`'s parameters to the provider (with the client's authentication, and a
    /// DPoP proof made with the key its code is bound to) and returns the request the browser is
    /// sent to: the authorization endpoint with `client_id` and `request_uri` only, expiring when
    /// the provider said.
    private func pushed(_ request: AuthorizationRequest, metadata: ProviderMetadata) async throws -> AuthorizationRequest {
        guard let endpoint = metadata.pushedAuthorizationRequestEndpoint else { return request }
        let post = try provider.clientRequest(endpoint, PushedAuthorization.parameters(of: request, endpoint: metadata.authorizationEndpoint),
                                              metadata: metadata, process: .authentication)
        let response = try await provider.sendProved(post, key: request.dpopKey, process: .authentication, purpose: "pushed authorization request")
        let reference = try PushedAuthorization.reference(response)
        guard let url = FormEncoding.url(metadata.authorizationEndpoint,
                                         appending: [("client_id", configuration.clientID), ("request_uri", reference.requestURI)]) else {
            throw SessionError(.invalidDiscoveryDocument, process: .authentication, message: "the authorization URL cannot be built")
        }
        return request.pointing(to: url, expiresAt: provider.clock.now().addingTimeInterval(reference.expiresIn))
    }
}
