import Foundation

/// Everything a ``SessionClient`` needs to know about the provider and the app.
///
/// A value that exists is valid: the initializer checks every rule below and throws
/// ``SessionError`` with code `invalidConfiguration` (process `configuration`) otherwise.
///
/// - The issuer is `https`, or `http` on a loopback host, with no query or fragment.
/// - The redirect URI is a private-use scheme, `https`, or `http` on a loopback IP literal
///   (`127.0.0.1`, `[::1]`) as RFC 8252 §7 allows, with no fragment.
/// - Scopes, prompt values and extra parameters are well-formed, and the extra parameters do not
///   override a parameter the client sets itself (`state`, `nonce`, PKCE, `grant_type`, ...).
/// - `claims`, when given, is a JSON object (OIDC Core §5.5).
public struct SessionConfiguration: Sendable, Equatable {
    /// The provider's issuer identifier; discovery is read from it.
    public let issuer: URL
    /// The client's identifier (its secret or key, if it has one, is in ``clientAuthentication``).
    public let clientID: String
    /// Where the provider sends the authorization response.
    public let redirectURI: URL
    /// Scopes requested besides `openid` by a sign-in that names none (``defaultScopes``).
    public let scopes: [String]
    /// The OIDC `claims` request parameter, as JSON text; sent with the flows that request an ID token.
    public let claims: String?
    /// The OIDC `prompt` parameter (space-separated values such as `login consent`).
    public let prompt: String?
    /// The OIDC `login_hint` parameter.
    public let loginHint: String?
    /// Further authorization request parameters, sent as given.
    public let additionalParameters: [String: String]
    /// Further token request parameters, sent as given with the code exchange and every refresh
    /// (Google's `audience`, say).
    public let tokenRequestParameters: [String: String]
    /// How the client authenticates to the token and revocation endpoints (default ``ClientAuthentication/none``:
    /// a public client).
    public let clientAuthentication: ClientAuthentication
    /// How the provider signs this client's ID tokens (default ``IDTokenSigning/signed``).
    public let idTokenSigning: IDTokenSigning
    /// An access token expiring within this many seconds is refreshed before use (default 60) —
    /// within at most half its lifetime when the provider gave one (`expires_in`): a 30-second
    /// token is refreshed 15 s before it expires, not at every use. On a fleet whose clocks differ,
    /// the node whose clock runs ahead refreshes first and the others take up its tokens.
    public let refreshLeeway: TimeInterval
    /// How far the provider's clock may differ from ours when checking `iat` and `exp` (default 120 s).
    public let allowedClockSkew: TimeInterval
    /// The RFC 8628 device authorization endpoint, for a provider that offers device sign-ins
    /// without naming the endpoint in its discovery document (django-oauth-toolkit 3 does not);
    /// nil uses discovery's `device_authorization_endpoint`.
    public let deviceAuthorizationEndpoint: URL?
    /// Where the provider returns the browser after an RP-initiated logout
    /// (``SessionClient/signOut(revokeTokens:endingProviderSessionWith:)``); nil uses
    /// ``redirectURI``. Register it with the provider as a post-logout redirect URI.
    public let postLogoutRedirectURI: URL?
    /// Whether sign-ins push their parameters to the provider first (RFC 9126, PAR): the browser
    /// then gets only `client_id` and a `request_uri`. A provider whose metadata requires it gets
    /// pushed requests either way.
    public let pushesAuthorizationRequests: Bool
    /// Whether sign-ins bind the session's tokens to a DPoP key (RFC 9449; default ``DPoPMode/off``).
    public let dpop: DPoPMode
    /// Whether a provider that answers a DPoP token request with a Bearer token is accepted (the
    /// session then holds Bearer tokens). Default false: the answer is refused, since a client
    /// that asked for bound tokens should not quietly get tokens anyone holding them can use.
    public let acceptsBearerForDPoP: Bool
    /// What the `private_key_jwt` client assertion names as its `aud` (default
    /// ``ClientAssertionAudience/tokenEndpoint``; FAPI 2.0 asks for ``ClientAssertionAudience/issuer``).
    public let clientAssertionAudience: ClientAssertionAudience
    /// How long the provider keeps honouring a refresh token after it rotated it (Auth0's reuse
    /// interval, Okta's grace period, Keycloak's refresh token max reuse with its lifespan), in
    /// seconds; nil (the default) when it honours none. Within it, a session whose refresh was
    /// interrupted (its process died after sending, before saving the answer) is refreshed again
    /// with the same token instead of ended. Set it only to what the provider is configured with.
    public let refreshTokenReuseInterval: TimeInterval?
    /// Where the server's metadata is found and what it must hold (default
    /// ``MetadataDiscovery/openIDConnect``; ``MetadataDiscovery/authorizationServer`` for an OAuth
    /// 2.0 server, as a protected resource names one).
    public let metadataDiscovery: MetadataDiscovery
    /// The resources (RFC 8707) the session's access token is asked for, sent as `resource` on
    /// the authorization request, the code exchange and every refresh (default: none, and the
    /// server decides). A session with resources sends its token only to requests they cover
    /// (``SessionClient/sendAuthorized(_:process:purpose:credential:)``); tokens for other
    /// resources of the same server come from ``SessionClient/tokens(forResource:)``. Each is an
    /// https URL (http only on loopback) without query, fragment or user info: the resource's
    /// canonical URI, such as a protected resource's metadata names it.
    public let resources: [URL]

    /// Authorization request parameters the client computes itself and that configuration may not override.
    static let reservedParameters: Set<String> = [
        "response_type", "client_id", "redirect_uri", "scope", "state", "nonce",
        "code_challenge", "code_challenge_method", "claims", "prompt", "login_hint", "dpop_jkt", "request_uri", "resource",
    ]

    /// Token request parameters the client computes itself (RFC 6749 §4.1.3, §6; RFC 7636 §4.5).
    static let reservedTokenParameters: Set<String> = [
        "grant_type", "code", "redirect_uri", "client_id", "code_verifier", "refresh_token", "scope",
        "client_secret", "client_assertion", "client_assertion_type", "device_code", "resource",
    ]

    /// Creates and validates a configuration.
    /// - Throws: ``SessionError`` `invalidConfiguration` naming the first rule that fails.
    public init(
        issuer: URL,
        clientID: String,
        redirectURI: URL,
        scopes: [String] = [],
        claims: String? = nil,
        prompt: String? = nil,
        loginHint: String? = nil,
        additionalParameters: [String: String] = [:],
        tokenRequestParameters: [String: String] = [:],
        clientAuthentication: ClientAuthentication = .none,
        idTokenSigning: IDTokenSigning = .signed,
        refreshLeeway: TimeInterval = 60,
        allowedClockSkew: TimeInterval = 120,
        deviceAuthorizationEndpoint: URL? = nil,
        postLogoutRedirectURI: URL? = nil,
        pushesAuthorizationRequests: Bool = false,
        dpop: DPoPMode = .off,
        acceptsBearerForDPoP: Bool = false,
        clientAssertionAudience: ClientAssertionAudience = .tokenEndpoint,
        refreshTokenReuseInterval: TimeInterval? = nil,
        metadataDiscovery: MetadataDiscovery = .openIDConnect,
        resources: [URL] = []
    ) throws {
        func invalid(_ why: String) -> SessionError {
            SessionError(.invalidConfiguration, process: .configuration, message: why)
        }
        guard URLRules.isSecureEndpoint(issuer) else {
            throw invalid("the issuer must be an https URL (http only on a loopback host)")
        }
        guard issuer.query == nil, issuer.fragment == nil else {
            throw invalid("the issuer must not have a query or fragment")
        }
        guard !clientID.isEmpty, clientID.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
            throw invalid("the client ID must be non-empty printable text")
        }
        try Self.validateRedirectURI(redirectURI, invalid: invalid)
        if let postLogoutRedirectURI { try Self.validateRedirectURI(postLogoutRedirectURI, invalid: invalid) }
        switch clientAuthentication {
        case .clientSecretBasic(let secret), .clientSecretPost(let secret):
            guard !secret.isEmpty else { throw invalid("the client secret is empty") }
        case .none, .privateKeyJWT:
            break
        }
        if let deviceAuthorizationEndpoint, !URLRules.isSecureEndpoint(deviceAuthorizationEndpoint) {
            throw invalid("the device authorization endpoint must be https (http only on a loopback host)")
        }
        for resource in resources where !ProtectedResourceMetadata.isResourceIdentifier(resource) {
            throw invalid("resource '\(Redaction.url(resource))' must be an https URL (http only on loopback) without query, fragment or user info (RFC 8707 §2)")
        }
        for scope in scopes where !Self.isScopeToken(scope) {
            throw invalid("scope '\(scope)' is not a valid scope token (RFC 6749 §3.3)")
        }
        if let prompt {
            let values = prompt.split(separator: " ", omittingEmptySubsequences: false)
            guard !values.isEmpty, values.allSatisfy({ Self.isScopeToken(String($0)) }) else {
                throw invalid("prompt must be space-separated values")
            }
        }
        if let claims {
            guard case .object? = JSONValue.parse(Data(claims.utf8)) else {
                throw invalid("claims must be a JSON object (OIDC Core §5.5)")
            }
        }
        if let loginHint, loginHint.isEmpty { throw invalid("the login hint must not be empty") }
        for (names, reserved) in [(additionalParameters.keys, Self.reservedParameters), (tokenRequestParameters.keys, Self.reservedTokenParameters)] {
            for name in names {
                guard !name.isEmpty else { throw invalid("an extra parameter has an empty name") }
                guard !reserved.contains(name) else { throw invalid("extra parameter '\(name)' is set by the client itself") }
            }
        }
        guard refreshLeeway >= 0, refreshLeeway.isFinite else { throw invalid("the refresh leeway must be zero or more seconds") }
        guard (0...600).contains(allowedClockSkew) else { throw invalid("the allowed clock skew must be 0 to 600 seconds") }
        if let refreshTokenReuseInterval, !(refreshTokenReuseInterval > 0 && refreshTokenReuseInterval.isFinite) {
            throw invalid("the refresh token reuse interval must be a positive number of seconds")
        }

        self.issuer = issuer
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.scopes = scopes
        self.claims = claims
        self.prompt = prompt
        self.loginHint = loginHint
        self.additionalParameters = additionalParameters
        self.tokenRequestParameters = tokenRequestParameters
        self.clientAuthentication = clientAuthentication
        self.idTokenSigning = idTokenSigning
        self.refreshLeeway = refreshLeeway
        self.allowedClockSkew = allowedClockSkew
        self.deviceAuthorizationEndpoint = deviceAuthorizationEndpoint
        self.postLogoutRedirectURI = postLogoutRedirectURI
        self.pushesAuthorizationRequests = pushesAuthorizationRequests
        self.dpop = dpop
        self.acceptsBearerForDPoP = acceptsBearerForDPoP
        self.clientAssertionAudience = clientAssertionAudience
        self.refreshTokenReuseInterval = refreshTokenReuseInterval
        self.metadataDiscovery = metadataDiscovery
        self.resources = resources
    }

    /// ``resources`` as sent.
    var resourceIndicators: [String] { resources.map(\.absoluteString) }

    /// ``resources`` as `resource` parameters, one each (RFC 8707 §2).
    var resourceParameters: [(String, String)] { resources.map { ("resource", $0.absoluteString) } }

    /// ``tokenRequestParameters`` in a fixed order, ready for a form.
    var sortedTokenRequestParameters: [(String, String)] {
        tokenRequestParameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The scopes a sign-in asks for when it names none: `openid`, then ``scopes``, without
    /// repeats; for an OAuth 2.0 authorization server (``MetadataDiscovery/authorizationServer``)
    /// ``scopes`` alone.
    public var defaultScopes: [String] {
        var seen = Set<String>()
        let first = metadataDiscovery == .openIDConnect ? ["openid"] : []
        return (first + scopes).filter { seen.insert($0).inserted }
    }

    /// The scopes a sign-in asks for: `scopes`, or ``defaultScopes`` when nil.
    /// - Throws: `invalidConfiguration` (process `authentication`) for a value that is not a scope
    ///   token (RFC 6749 §3.3), or an empty list unless `allowingNone` or the server is an OAuth
    ///   2.0 authorization server (whose requests may leave the scope to it, RFC 6749 §3.3).
    func requestedScopes(_ scopes: [String]?, allowingNone: Bool) throws -> [String] {
        let scopes = scopes ?? defaultScopes
        let allowingNone = allowingNone || metadataDiscovery == .authorizationServer
        guard allowingNone || !scopes.isEmpty, scopes.allSatisfy(Self.isScopeToken) else {
            throw SessionError(.invalidConfiguration, process: .authentication,
                               message: "the scopes must be \(allowingNone ? "" : "one or more ")scope tokens (RFC 6749 §3.3)")
        }
        return scopes
    }

    private static func validateRedirectURI(_ uri: URL, invalid: (String) -> SessionError) throws {
        guard let components = URLComponents(url: uri, resolvingAgainstBaseURL: false),
              let scheme = components.scheme?.lowercased() else {
            throw invalid("the redirect URI must be an absolute URI")
        }
        guard components.fragment == nil else { throw invalid("the redirect URI must not have a fragment (RFC 6749 §3.1.2)") }
        switch scheme {
        case "https":
            guard let host = components.host, !host.isEmpty else { throw invalid("the https redirect URI has no host") }
        case "http":
            guard URLRules.isLoopbackIPLiteral(host: components.host) else {
                throw invalid("an http redirect URI must use a loopback IP literal such as 127.0.0.1 (RFC 8252 §7.3)")
            }
        default:
            // A private-use URI scheme (RFC 8252 §7.1), e.g. com.example.app:/callback.
            let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "+-."))
            guard scheme.unicodeScalars.allSatisfy(allowed.contains), scheme.first?.isLetter == true else {
                throw invalid("the redirect URI scheme is not valid")
            }
        }
    }

    /// scope-token = 1*( %x21 / %x23-5B / %x5D-7E )
    static func isScopeToken(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            scalar.value == 0x21 || (0x23...0x5B).contains(scalar.value) || (0x5D...0x7E).contains(scalar.value)
        }
    }
}
