import Foundation

/// The Device Authorization Grant (RFC 8628) at a provider: a sign-in approved in a browser on
/// another device, for machines that have none (a tool over SSH, a container, a TV). It asks for
/// the codes, then polls the token endpoint until the user decides, and returns validated tokens
/// for a session to adopt.
struct DeviceAuthorizationFlow: Sendable {
    /// The grant type of a device code at the token endpoint (RFC 8628 §3.4).
    static let grantType = "urn:ietf:params:oauth:grant-type:device_code"

    let provider: OpenIDProvider

    private var configuration: SessionConfiguration { provider.configuration }

    /// The user code and the URL where the user enters it, for `scopes` (nil: the configuration's
    /// defaults; empty: none, the provider's default, and no ID token expected).
    /// - Throws: `unsupportedProviderFeature` without a device authorization endpoint; bad scopes;
    ///   the provider's OAuth error; `invalidResponse`; transport errors.
    func begin(scopes: [String]?) async throws -> DeviceAuthorization {
        let scopes = try configuration.requestedScopes(scopes, allowingNone: true)
        let metadata = try await provider.discover()
        guard let endpoint = configuration.deviceAuthorizationEndpoint ?? metadata.deviceAuthorizationEndpoint else {
            throw SessionError(.unsupportedProviderFeature, process: .authentication,
                               message: "the provider offers no device sign-in (its discovery has no device_authorization_endpoint)")
        }
        let parameters = (scopes.isEmpty ? [] : [("scope", scopes.joined(separator: " "))]) + configuration.resourceParameters
        let request = try provider.clientRequest(endpoint, parameters, metadata: metadata, process: .authentication)
        let response = try await provider.exchange.send(request, process: .authentication, purpose: "device authorization")
        let authorization = try DeviceAuthorization(response: response, scopes: scopes, now: provider.clock.now())
        provider.log(.info, "device sign-in started: \(authorization)")
        return authorization
    }

    /// Polls until the user approved `authorization` (its validated tokens) or denied it. Polls
    /// never come faster than the interval: `authorization_pending` waits it again, `slow_down`
    /// lengthens it by 5 seconds for the rest of the sign-in (RFC 8628 §3.5); a poll that fails in
    /// transit or gets a 5xx is logged and polling goes on after a wait twice the last (at most a
    /// minute, or the interval when that is longer, and short enough to leave a last poll before
    /// the codes expire), until a poll is answered; the codes' expiry ends it.
    /// - Throws: `accessDenied`; `expiredToken`; `cancelled`; another OAuth error; ID-token errors.
    func tokens(for authorization: DeviceAuthorization) async throws -> SessionTokens {
        let metadata = try await provider.discover()
        let key = try provider.newDPoPKey(metadata: metadata)
        let clock = provider.clock
        var interval = authorization.interval
        var wait = interval
        while true {
            // A backed-off wait is shortened to keep the last poll the codes' lifetime leaves room for.
            let left = authorization.expiresAt.timeIntervalSince(clock.now())
            if wait > interval { wait = max(interval, min(wait, left.rounded(.up) - 1)) }
            guard clock.now().addingTimeInterval(wait) < authorization.expiresAt else {
                throw SessionError(.expiredToken, process: .authentication, message: "device sign-in: the code expired before it was approved")
            }
            do {
                try await clock.sleep(seconds: wait)
            } catch {
                throw SessionError.cancelled(.authentication, "the device sign-in")
            }
            let request = try provider.clientRequest(metadata.tokenEndpoint, [
                ("grant_type", Self.grantType),
                ("device_code", authorization.deviceCode),
            ] + configuration.resourceParameters + configuration.sortedTokenRequestParameters, metadata: metadata, process: .authentication)
            let response: HTTPResponse
            switch try await provider.attemptProved(request, key: key, purpose: "device token poll") {
            case .success(let received):
                response = received
            case .failure(let failure) where failure.kind == .cancelled || Task.isCancelled:
                throw SessionError.cancelled(.authentication, "the device sign-in")
            case .failure(let failure):
                wait = Self.backedOff(wait, interval: interval)
                provider.log(.warning, "device sign-in: a poll failed in transit (\(failure.detail)); polling goes on in \(wholeSeconds(wait)) s")
                continue
            }
            if response.status >= 500 {
                wait = Self.backedOff(wait, interval: interval)
                provider.log(.warning, "device sign-in: the token endpoint answered HTTP \(response.status); polling goes on in \(wholeSeconds(wait)) s")
                continue
            }
            wait = interval
            if response.status != 200 {
                // RFC 8628 §3.5's codes, compared exactly as every protocol string is.
                let error = OAuthErrorResponse(json: response.body)?.error
                if Exact.equal(error, "authorization_pending") { continue }
                if Exact.equal(error, "slow_down") {
                    interval += 5
                    wait = interval
                    continue
                }
                throw ProviderExchange.statusError(response, process: .authentication, purpose: "device token poll")
            }
            return try await tokens(from: response, scopes: authorization.scopes, metadata: metadata, key: key)
        }
    }

    /// The wait after a poll that failed in transit or at the server, `wait` the one before it:
    /// twice as long, so devices back off from a provider in trouble (RFC 8628 §3.5), at most a
    /// minute, never shorter than the interval.
    static func backedOff(_ wait: TimeInterval, interval: TimeInterval) -> TimeInterval {
        max(interval, min(wait * 2, 60))
    }

    /// The tokens of a successful poll, the ID token validated when `openid` was asked for.
    private func tokens(from response: HTTPResponse, scopes: [String], metadata: ProviderMetadata, key: DPoPKey?) async throws -> SessionTokens {
        let tokenResponse = try TokenResponse(response: response, purpose: "device token poll")
        let binding = try provider.binding(of: tokenResponse, provedWith: key, purpose: "device token poll")
        var subject: String?
        if let idToken = tokenResponse.idToken {
            subject = try await provider.validateIDToken(idToken, nonce: nil, subject: nil, metadata: metadata).subject
        } else if scopes.contains("openid") {
            throw SessionError(.idTokenMissing, process: .authentication, message: "device token poll: the response has no ID token, though openid was asked for (a provider whose device grant issues none needs scopes without openid)")
        }
        return tokenResponse.sessionTokens(receivedAt: provider.clock.now(), requestedScopes: scopes, subject: subject).bound(to: binding)
            .issued(for: provider.configuration.resourceIndicators)
    }
}
