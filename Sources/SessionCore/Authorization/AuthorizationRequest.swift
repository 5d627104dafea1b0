import Foundation

/// One authorization request (RFC 6749 §4.1.1 with PKCE and OIDC parameters), ready to be
/// opened in a browser. Its `state`, `nonce` and PKCE verifier are fresh from the system CSPRNG
/// and used once. They can be read, as AppAuth's request allows, for legacy APIs that expose
/// them; they are secrets until the request is answered, and never appear in ``description``.
public struct AuthorizationRequest: Sendable, CustomStringConvertible {
    /// The URL to open.
    public let url: URL
    /// The redirect URI the response must come back to.
    public let redirectURI: URL
    /// The scopes requested, in the order sent.
    public let scopes: [String]
    /// The `state` sent, which the response must echo (a secret: never log it).
    public let state: String
    /// The `nonce` sent, which the ID token must carry; nil for a request without `openid` (a secret).
    public let nonce: String?
    let pkce: PKCE
    /// The provider's issuer, which an RFC 9207 `iss` in the response must equal.
    let issuer: String
    /// Whether the provider declared it sends `iss`, so that a response without it is refused.
    let issuerRequired: Bool
    /// For a pushed request (RFC 9126), when the provider forgets it: ``url`` must be opened
    /// before then. nil for a request that travels in the URL itself.
    public private(set) var expiresAt: Date?
    /// The DPoP key the code is bound to (its thumbprint sent as `dpop_jkt`, RFC 9449 §10),
    /// which the code exchange proves; nil for a Bearer sign-in or one whose key is made at the
    /// exchange (a pending sign-in kept outside the client).
    let dpopKey: DPoPKey?
    /// For a step-up: the `max_age` sent, which the ID token's `auth_time` must then meet.
    let maxAge: Int?
    /// For a step-up: the user who must sign in again, whose subject the ID token must carry.
    let expectedSubject: String?

    /// The PKCE `code_verifier` the code exchange will send (RFC 7636; a secret: never log it).
    public var codeVerifier: String { pkce.verifier }

    /// True when `openid` is among the scopes: the answer must then carry an ID token, which is
    /// validated.
    public var requestsIDToken: Bool { scopes.contains("openid") }

    /// Builds the request for `scopes` from the configuration and the provider's metadata, sent
    /// with `redirectURI` (the configured one unless a loopback agent chose its port), its code
    /// bound to `dpopKey` when there is one; for a step-up, with its `acr_values` and `max_age`
    /// (RFC 9470 §4), for `subject` when the session named a user.
    init(configuration: SessionConfiguration, metadata: ProviderMetadata, scopes: [String], redirectURI: URL, dpopKey: DPoPKey? = nil,
         stepUp: StepUp? = nil, subject: String? = nil) throws {
        let state = try RandomToken.generate()
        let nonce = scopes.contains("openid") ? try RandomToken.generate() : nil
        let pkce = try PKCE.generate()
        var parameters: [(String, String)] = [
            ("response_type", "code"),
            ("client_id", configuration.clientID),
            ("redirect_uri", redirectURI.absoluteString),
        ]
        // No scopes: the authorization server's default applies (RFC 6749 §3.3).
        if !scopes.isEmpty { parameters.append(("scope", scopes.joined(separator: " "))) }
        parameters += [
            ("state", state),
            ("code_challenge", pkce.challenge),
            ("code_challenge_method", PKCE.method),
        ]
        if let nonce { parameters.append(("nonce", nonce)) }
        parameters += configuration.resourceParameters
        if let dpopKey { parameters.append(("dpop_jkt", try dpopKey.thumbprint())) }
        // The claims request asks for ID-token and UserInfo claims: meaningless without `openid`.
        if let claims = configuration.claims, nonce != nil { parameters.append(("claims", claims)) }
        if let prompt = configuration.prompt { parameters.append(("prompt", prompt)) }
        if let loginHint = configuration.loginHint { parameters.append(("login_hint", loginHint)) }
        var stepUpParameters: [(String, String)] = []
        if let acrValues = stepUp?.acrValues, !acrValues.isEmpty { stepUpParameters.append(("acr_values", acrValues.joined(separator: " "))) }
        if let maxAge = stepUp?.maxAge { stepUpParameters.append(("max_age", String(maxAge))) }
        // What the resource asked for wins over the configuration's own value of the same parameter.
        parameters += configuration.additionalParameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            .filter { parameter in !stepUpParameters.contains { Exact.equal($0.0, parameter.0) } } + stepUpParameters

        // Any query the endpoint already has stays (OIDC Core §3.1.2.1 allows it).
        guard let url = FormEncoding.url(metadata.authorizationEndpoint, appending: parameters) else {
            throw SessionError(.invalidDiscoveryDocument, process: .authentication, message: "the authorization URL cannot be built")
        }
        self.init(url: url, redirectURI: redirectURI, scopes: scopes, state: state, nonce: nonce, pkce: pkce, issuer: metadata.issuer,
                  issuerRequired: metadata.authorizationResponseIssParameterSupported, dpopKey: dpopKey, maxAge: stepUp?.maxAge,
                  expectedSubject: subject)
    }

    /// A request from its parts: as it is built, or restored (a sealed pending authorization).
    init(url: URL, redirectURI: URL, scopes: [String], state: String, nonce: String?, pkce: PKCE, issuer: String, issuerRequired: Bool,
         dpopKey: DPoPKey? = nil, maxAge: Int? = nil, expectedSubject: String? = nil) {
        self.url = url
        self.redirectURI = redirectURI
        self.scopes = scopes
        self.state = state
        self.nonce = nonce
        self.pkce = pkce
        self.issuer = issuer
        self.issuerRequired = issuerRequired
        self.dpopKey = dpopKey
        self.maxAge = maxAge
        self.expectedSubject = expectedSubject
    }

    /// The same request, sent to the provider by reference: the browser opens `url` (the
    /// authorization endpoint with `client_id` and `request_uri`), which expires at `expiresAt`.
    func pointing(to url: URL, expiresAt: Date) -> AuthorizationRequest {
        var pushed = AuthorizationRequest(url: url, redirectURI: redirectURI, scopes: scopes, state: state, nonce: nonce, pkce: pkce,
                                          issuer: issuer, issuerRequired: issuerRequired, dpopKey: dpopKey, maxAge: maxAge,
                                          expectedSubject: expectedSubject)
        pushed.expiresAt = expiresAt
        return pushed
    }

    /// The scopes and the endpoint, with every parameter value redacted.
    public var description: String { "AuthorizationRequest(\(scopes.joined(separator: " ")), \(Redaction.url(url)))" }
}

extension AuthorizationRequest {
    /// Checks `callbackURL` as the response to this request, as
    /// ``SessionClient/completeAuthorization(callbackURL:)`` checks it before exchanging its code:
    /// redirect target, parameters, `state`, `iss` (RFC 9207), then `error` or `code`. Agents use
    /// it to tell the user what the app will make of the redirect.
    /// - Throws: the `SessionError` the sign-in will then end with (`accessDenied` when the user
    ///   declined, `stateMismatch`, `authorizationIssuerMismatch`, another OAuth error, ...).
    public func validateResponse(_ callbackURL: URL) throws {
        _ = try AuthorizationResponse(callbackURL: callbackURL, request: self)
    }

    /// True when `url` addresses `redirectURI`: same scheme and host (ignoring case), same
    /// effective port and the same path. Query and fragment are not compared. Agents use it to
    /// recognise the redirect that ends an authorization.
    public static func isResponse(_ url: URL, to redirectURI: URL) -> Bool {
        AuthorizationResponse.matches(url, redirectURI: redirectURI)
    }
}
