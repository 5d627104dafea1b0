import Foundation

/// The Device Authorization Grant (RFC 8628): a sign-in approved in a browser on another device,
/// for machines that have none (a tool over SSH, a container, a TV).
extension SessionClient {
    /// The grant type of a device code at the token endpoint (RFC 8628 §3.4).
    static let deviceCodeGrantType = "urn:ietf:params:oauth:grant-type:device_code"

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
        try await within(.authentication) {
            let scopes = try configuration.requestedScopes(scopes, allowingNone: true)
            let metadata = try await discover()
            guard let endpoint = configuration.deviceAuthorizationEndpoint ?? metadata.deviceAuthorizationEndpoint else {
                throw SessionError(.unsupportedProviderFeature, process: .authentication,
                                   message: "the provider offers no device sign-in (its discovery has no device_authorization_endpoint)")
            }
            let parameters = scopes.isEmpty ? [] : [("scope", scopes.joined(separator: " "))]
            let request = try provider.clientRequest(endpoint, parameters, metadata: metadata, process: .authentication)
            let response = try await exchange.send(request, process: .authentication, purpose: "device authorization")
            let authorization = try DeviceAuthorization(response: response, scopes: scopes, now: clock.now())
            log(.info, "device sign-in started: \(authorization)")
            return authorization
        }
    }

    /// Polls the token endpoint until the user has approved or denied `authorization`, then
    /// validates and stores the tokens as a browser sign-in's (the ID token without a `nonce`,
    /// which this grant has no place for).
    ///
    /// Polls never come faster than the interval: `authorization_pending` waits it again,
    /// `slow_down` lengthens it by 5 seconds for the rest of the sign-in (RFC 8628 §3.5). A poll
    /// that fails in transit or gets a 5xx is logged and polling goes on; the codes' expiry ends it.
    /// Cancel the task to stop at once.
    /// - Throws: `accessDenied` when the user denied it; `expiredToken` when the codes expired
    ///   first; `cancelled`; another OAuth error of the token endpoint; ID-token errors;
    ///   `storageFailed`. All with process `authentication`.
    public func completeDeviceAuthorization(_ authorization: DeviceAuthorization) async throws -> SessionTokens {
        try await within(.authentication) {
            let epoch = state.epoch
            let metadata = try await discover()
            let key = try newDPoPKey(metadata: metadata)
            var interval = authorization.interval
            while true {
                guard clock.now().addingTimeInterval(interval) < authorization.expiresAt else {
                    throw SessionError(.expiredToken, process: .authentication, message: "device sign-in: the code expired before it was approved")
                }
                do {
                    try await clock.sleep(seconds: interval)
                } catch {
                    throw SessionError.cancelled(.authentication, "the device sign-in")
                }
                let request = try provider.clientRequest(metadata.tokenEndpoint, [
                    ("grant_type", Self.deviceCodeGrantType),
                    ("device_code", authorization.deviceCode),
                ] + configuration.sortedTokenRequestParameters, metadata: metadata, process: .authentication)
                let response: HTTPResponse
                switch try await attemptProved(request, key: key, purpose: "device token poll") {
                case .success(let received):
                    response = received
                case .failure(let failure) where failure.kind == .cancelled || Task.isCancelled:
                    throw SessionError.cancelled(.authentication, "the device sign-in")
                case .failure(let failure):
                    log(.warning, "device sign-in: a poll failed in transit (\(failure.detail)); polling goes on")
                    continue
                }
                if response.status >= 500 {
                    log(.warning, "device sign-in: the token endpoint answered HTTP \(response.status); polling goes on")
                    continue
                }
                if response.status != 200 {
                    // RFC 8628 §3.5's codes, compared exactly as every protocol string is.
                    let error = OAuthErrorResponse(json: response.body)?.error
                    if Exact.equal(error, "authorization_pending") { continue }
                    if Exact.equal(error, "slow_down") {
                        interval += 5
                        continue
                    }
                    throw ProviderExchange.statusError(response, process: .authentication, purpose: "device token poll")
                }
                let tokens = try await deviceTokens(response, scopes: authorization.scopes, metadata: metadata, key: key)
                try await persist(tokens, ifStill: epoch)
                log(.info, "device sign-in completed (\(authorization.scopes.joined(separator: " ")))")
                return tokens
            }
        }
    }

    /// The tokens of a successful poll, the ID token validated when `openid` was asked for.
    private func deviceTokens(_ response: HTTPResponse, scopes: [String], metadata: ProviderMetadata, key: DPoPKey?) async throws -> SessionTokens {
        let tokenResponse = try TokenResponse(response: response, purpose: "device token poll")
        let binding = try binding(of: tokenResponse, provedWith: key, purpose: "device token poll")
        var subject: String?
        if let idToken = tokenResponse.idToken {
            subject = try await provider.validateIDToken(idToken, nonce: nil, subject: nil, metadata: metadata).subject
        } else if scopes.contains("openid") {
            throw SessionError(.idTokenMissing, process: .authentication, message: "device token poll: the response has no ID token, though openid was asked for (a provider whose device grant issues none needs scopes without openid)")
        }
        return tokenResponse.sessionTokens(receivedAt: clock.now(), requestedScopes: scopes, subject: subject).bound(to: binding)
    }
}
