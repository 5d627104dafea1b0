import Foundation

/// The refresh token grant (RFC 6749 §6) at a provider: the request for a session's refresh token,
/// and the tokens a response gives — its ID token validated against the session's subject (OIDC
/// Core §12.2), its DPoP binding checked, the refresh token kept when none came back. A refresh
/// for one resource (RFC 8707 §2.2) names it as `resource` and gives that resource's token,
/// leaving the session's own access token as it was. When to refresh, and what an unknown
/// outcome costs the session, is the session's to decide.
struct RefreshTokenGrant: Sendable {
    let provider: OpenIDProvider

    /// The token request that spends `refreshToken` for `resources` (one `resource` each), with
    /// the client's authentication.
    func request(spending refreshToken: String, for resources: [String], metadata: ProviderMetadata) throws -> HTTPRequest {
        try provider.clientRequest(metadata.tokenEndpoint, [
            ("grant_type", "refresh_token"),
            ("refresh_token", refreshToken),
        ] + resources.map { ("resource", $0) } + provider.configuration.sortedTokenRequestParameters, metadata: metadata, process: .authentication)
    }

    /// True for an answer that says the refresh token was not spent: the provider failed visibly
    /// (5xx), or asked once more for a DPoP nonce, so the request was not processed (RFC 9449 §8;
    /// a fleet of provider nodes with nonces of their own does it).
    static func leftUnspent(_ response: HTTPResponse) -> Bool {
        response.status >= 500 || OpenIDProvider.asksForDPoPNonce(response)
    }

    /// The tokens that replace `tokens` after `response`, the answer to a request proved with
    /// `key`: for `resource`, `tokens` keeping that resource's new token and the refresh token
    /// the answer left.
    /// - Throws: token endpoint errors; ID-token errors (another subject included); DPoP binding errors.
    func refreshed(_ tokens: SessionTokens, by response: HTTPResponse, provedWith key: DPoPKey?, metadata: ProviderMetadata,
                   for resource: String? = nil) async throws -> SessionTokens {
        let tokenResponse = try TokenResponse(response: response, purpose: "refresh")
        var subject = tokens.subject
        if let idToken = tokenResponse.idToken {
            subject = try await provider.validateIDToken(idToken, nonce: nil, subject: tokens.subject, metadata: metadata).subject
        }
        let binding = try provider.binding(of: tokenResponse, provedWith: key, purpose: "refresh")
        if let resource {
            // Proved with the session's key, the token is bound to it (its type says so) or Bearer as configured.
            return tokens.keeping(tokenResponse.resourceToken(for: resource, receivedAt: provider.clock.now(), previous: tokens),
                                  refreshToken: tokenResponse.refreshToken ?? tokens.refreshToken)
        }
        return tokenResponse.sessionTokens(receivedAt: provider.clock.now(), requestedScopes: tokens.scopes, subject: subject, previous: tokens)
            .bound(to: binding)
    }
}
