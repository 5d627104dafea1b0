import Foundation

/// Resource indicators (RFC 8707): one session's tokens for several resources of its
/// authorization server, each asked for with the refresh token and refreshed on its own, and each
/// sent only where its resource covers the request.
extension SessionClient {
    /// An access token for `resource`, fresh: the session's own when it was asked for that
    /// resource (``SessionConfiguration/resources``), else the resource's token kept with the
    /// session, asked for (or refreshed) first with the refresh token and `resource` when there is
    /// none or it expires within the refresh leeway. Callers asking at once share one request, and
    /// it never overlaps a refresh of the session: both spend the same refresh token.
    /// - Parameter resource: the resource's canonical URI (its metadata's `resource`).
    /// - Throws: `invalidConfiguration` for a resource that is not an https URL (http only on
    ///   loopback) without query or fragment; `notAuthenticated` without a session;
    ///   `noTokenForResource` when the session has no refresh token to ask with; `invalidTarget`
    ///   when the authorization server refuses the resource (the session stays); the refresh's
    ///   errors otherwise (see ``refresh()``).
    public func tokens(forResource resource: URL) async throws -> ResourceAccessToken {
        guard ProtectedResourceMetadata.isResourceIdentifier(resource) else {
            throw SessionError(.invalidConfiguration, process: .authentication,
                               message: "resource '\(Redaction.url(resource))' must be an https URL (http only on loopback) without query or fragment")
        }
        let indicator = resource.absoluteString
        guard let tokens = state.tokens else { throw SessionError.noSession(.authentication) }
        if Exact.contains(tokens.resources, indicator) {
            let fresh = try await validTokens()
            return ResourceAccessToken(resource: indicator, accessToken: fresh.accessToken, tokenType: fresh.tokenType ?? "Bearer",
                                       expiresAt: fresh.expiresAt, lifetime: fresh.lifetime, scopes: fresh.scopes)
        }
        guard let token = try await validTokens(indicator).resourceTokens[indicator] else {
            throw SessionError(.invalidResponse, process: .authentication, message: "refresh for a resource: no token came for it")
        }
        return token
    }

    /// The session's tokens with a fresh token for `resource`, asked for when it has none or it is due.
    func validTokens(_ resource: String) async throws -> SessionTokens {
        guard let tokens = state.tokens else { throw SessionError.noSession(.authentication) }
        if let held = tokens.resourceTokens[resource], !held.expires(within: configuration.refreshLeeway, of: clock.now()) { return tokens }
        guard tokens.refreshToken != nil else {
            throw SessionError(.noTokenForResource, process: .authentication,
                               message: "the session has no refresh token to ask for a token for '\(resource)'")
        }
        return try await refreshFlight.run(key: resource) { try await self.performRefresh(onlyIfExpiring: true, resource: resource) }
    }

    /// The resource whose own token a request to `url` takes, or nil for the session's access
    /// token: the most specific resource covering `url` among those the access token was asked for
    /// and those the session holds tokens for (``ProtectedResourceMetadata/covers(_:)``'s rule).
    /// A session whose access token names no resource sends it where no resource token covers.
    /// - Throws: `noTokenForResource` when the access token was asked for resources and none
    ///   covers `url`: a token is never sent to a resource it was not issued for.
    func resourceToken(for url: URL, process: SessionError.Process) throws -> String? {
        guard let tokens = state.tokens, !tokens.resources.isEmpty || !tokens.resourceTokens.isEmpty else { return nil }
        let covering = { (indicator: String) in URL(string: indicator).map { ProtectedResourceMetadata.resource($0, covers: url) } ?? false }
        let own = tokens.resources.filter(covering).map { (indicator: $0, isOwn: true) }
        let kept = tokens.resourceTokens.keys.filter(covering).map { (indicator: $0, isOwn: false) }
        if let best = (own + kept).max(by: { $0.indicator.utf8.count < $1.indicator.utf8.count }) { return best.isOwn ? nil : best.indicator }
        guard tokens.resources.isEmpty else {
            throw SessionError(.noTokenForResource, process: process,
                               message: "the session's access token is for \(tokens.resources.joined(separator: ", ")), which does not cover '\(Redaction.url(url))'; ask for a token with tokens(forResource:)")
        }
        return nil
    }

    /// ``sendAuthorized(_:process:purpose:credential:)`` for a request `resource` covers: with
    /// that resource's token, refreshed once and sent again when the server refuses it
    /// (`invalid_token`) and the request may be sent twice.
    func sendAuthorized(_ request: HTTPRequest, forResource resource: String, process: SessionError.Process,
                        purpose: String) async throws -> (response: HTTPResponse, tokens: SessionTokens) {
        let token = { @Sendable (tokens: SessionTokens) throws -> String in
            guard let token = tokens.resourceTokens[resource]?.accessToken else {
                throw SessionError(.invalidResponse, process: process, message: "refresh for a resource: no token came for it")
            }
            return token
        }
        return try await sendReplacingRefused(request, tokens: try await validTokens(resource), process: process, purpose: purpose,
                                              credential: token) { sent in
            try await self.tokensReplacing(sent, resource: resource, credential: token)
        }
    }
}
