import Foundation

/// The Device Authorization Grant (RFC 8628) for a session: the flow (``DeviceAuthorizationFlow``)
/// asks for the codes and polls; the session adopts the tokens.
extension SessionClient {
    /// Starts a device sign-in: asks the provider for a user code and the URL where the user
    /// enters it. Show them, then call ``completeDeviceAuthorization(_:)``.
    /// - Parameter scopes: as for ``beginAuthorization(scopes:)``; nil asks for `openid` and the
    ///   configured scopes; an empty list sends none, leaving the provider's default (RFC 8628
    ///   §3.1 makes `scope` optional), and expects no ID token.
    /// - Throws: `unsupportedProviderFeature` when neither the configuration
    ///   (``SessionConfiguration/deviceAuthorizationEndpoint``) nor the provider's discovery names a
    ///   device authorization endpoint; `invalidConfiguration` for malformed scopes; the
    ///   provider's OAuth error (`invalidClient`, `invalidScope`, ...); `invalidResponse`;
    ///   transport errors. All with process `authentication`.
    public func beginDeviceAuthorization(scopes: [String]? = nil) async throws -> DeviceAuthorization {
        try await attributingErrors(to: .authentication) { try await DeviceAuthorizationFlow(provider: provider).begin(scopes: scopes) }
    }

    /// Polls the token endpoint until the user has approved or denied `authorization`, then
    /// validates and stores the tokens as a browser sign-in's (the ID token without a `nonce`,
    /// which this grant has no place for).
    ///
    /// Polls never come faster than the interval: `authorization_pending` waits it again,
    /// `slow_down` lengthens it by 5 seconds for the rest of the sign-in (RFC 8628 §3.5). A poll
    /// that fails in transit or gets a 5xx is logged and polling goes on, each such wait twice the
    /// last (at most a minute) until a poll is answered; the codes' expiry ends it.
    /// Cancel the task to stop at once.
    /// - Throws: `accessDenied` when the user denied it; `expiredToken` when the codes expired
    ///   first; `cancelled`; another OAuth error of the token endpoint; ID-token errors;
    ///   `storageFailed`. All with process `authentication`.
    public func completeDeviceAuthorization(_ authorization: DeviceAuthorization) async throws -> SessionTokens {
        try await attributingErrors(to: .authentication) {
            let epoch = state.epoch
            let tokens = try await DeviceAuthorizationFlow(provider: provider).tokens(for: authorization)
            try await adopt(tokens, ifStill: epoch)
            log(.info, "device sign-in completed (\(authorization.scopes.joined(separator: " ")))")
            return tokens
        }
    }
}
