import Foundation

/// Token revocation (RFC 7009) at a provider: the refresh token of a session (which ends its grant),
/// or its access token when it has none, with the client's authentication.
package struct TokenRevocation: Sendable {
    package let provider: OpenIDProvider

    /// Revocation at `provider`.
    package init(provider: OpenIDProvider) {
        self.provider = provider
    }

    /// Revokes `tokens`' refresh token, or without one their access token.
    /// - Throws: `unsupportedProviderFeature` when the provider has no revocation endpoint;
    ///   transport and OAuth errors of the revocation. All with process `endSession`.
    package func revoke(_ tokens: SessionTokens) async throws {
        guard let endpoint = try await provider.revocationEndpoint() else {
            throw SessionError(.unsupportedProviderFeature, process: .endSession, message: "the provider has no revocation endpoint")
        }
        let (token, hint) = tokens.refreshToken.map { ($0, "refresh_token") } ?? (tokens.accessToken, "access_token")
        let request = try provider.clientRequest(endpoint, [("token", token), ("token_type_hint", hint)],
                                                 metadata: try await provider.discover(), process: .endSession)
        let response = try await provider.exchange.send(request, process: .endSession, purpose: "revocation")
        guard response.status == 200 else { throw ProviderExchange.statusError(response, process: .endSession, purpose: "revocation") }
    }
}
