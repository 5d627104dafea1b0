import Foundation
import SessionCore

/// One GrabID login: its settings, the security values of the login in progress, and the tokens
/// once signed in, as GrabID's `LoginSession`.
///
/// `state`, `nonce` and `codeVerifier` are set when `login` builds the authorization request and
/// `code` when `exchangeToken` receives the redirect, as in GrabID. They are secrets: nothing here
/// logs or prints them, and `description` is `NSObject`'s. Archiving a session (`NSCoding`) keeps
/// what GrabID's keeps, tokens excluded.
///
/// `@unchecked Sendable` (an open `NSObject` subclass): every property but the constant
/// `clientId` is in `values`, which is `Locked`, so the app may use a session on any thread while
/// a login updates it.
open class LoginSession: NSObject, NSCoding, @unchecked Sendable {
    /// What a login session holds besides its client ID.
    struct Values {
        var redirectUrl: URL
        var scope: String
        var hint: String
        var idTokenHint: String
        var prompt: String
        var request: String?
        var acrValues: [String: String]?
        var serviceDiscoveryUrl: String
        var code: String?
        var codeVerifier: String?
        var state: String?
        var nonce: String?
        var tokenType: String?
        var accessToken: String?
        var idToken: String?
        /// The ID token's claims, as SessionCore decoded them once.
        var idTokenClaims: [String: JSONValue] = [:]
        var refreshToken: String?
        var accessTokenExpiresAt: Date?
        /// The endpoints GrabID kept with a session, by their archive keys (`tokenEndpoint`,
        /// `authorizationEndpoint`, `idTokenVerificationEndpoint`, `clientPublicInfoEndpoint`).
        var endpoints: [String: String] = [:]
        /// Never archived: a secret stays out of every store.
        var clientAuthentication = ClientAuthentication.none
    }

    private let values: Locked<Values>

    /// An addition: how the client authenticates at the token and revocation endpoints, for a
    /// confidential client on a server (an app on a device has no secret to keep: leave `.none`).
    /// It is not archived with the session.
    public var clientAuthentication: ClientAuthentication {
        get { withValues { $0.clientAuthentication } }
        set { withValues { $0.clientAuthentication = newValue } }
    }

    /// The registered client ID.
    public let clientId: String

    /// Creates a session; nothing is checked until `login`.
    public init(clientId: String, redirectUrl: URL, scope: String, request: String? = nil, acrValues: [String: String]? = nil,
                serviceDiscoveryUrl: String, hint: String = "", idTokenHint: String = "", prompt: String = "") {
        self.clientId = clientId
        values = Locked(Values(redirectUrl: redirectUrl, scope: scope, hint: hint, idTokenHint: idTokenHint, prompt: prompt, request: request,
                        acrValues: acrValues, serviceDiscoveryUrl: serviceDiscoveryUrl))
        super.init()
    }

    /// GrabID's shorter initializer, without `idTokenHint` and `prompt`.
    public convenience init(clientId: String, redirectUrl: URL, scope: String, request: String? = nil, acrValues: [String: String]? = nil,
                            serviceDiscoveryUrl: String, hint: String = "") {
        self.init(clientId: clientId, redirectUrl: redirectUrl, scope: scope, request: request, acrValues: acrValues,
                  serviceDiscoveryUrl: serviceDiscoveryUrl, hint: hint, idTokenHint: "", prompt: "")
    }

    // MARK: NSCoding

    /// Archives what GrabID archives: the security values, the token type and expiry, the
    /// discovery URL, the endpoints a session knows and the hints. Tokens are not archived
    /// (GrabID kept them in the Keychain).
    public func encode(with coder: NSCoder) {
        let values = withValues { $0 }
        coder.encode(values.code, forKey: "code")
        coder.encode(values.hint, forKey: "hint")
        coder.encode(values.codeVerifier, forKey: "codeVerifier")
        coder.encode(values.accessTokenExpiresAt, forKey: "accessTokenExpiresAt")
        coder.encode(values.state, forKey: "state")
        coder.encode(values.tokenType, forKey: "tokenType")
        coder.encode(values.nonce, forKey: "nonce")
        coder.encode(values.serviceDiscoveryUrl, forKey: "serviceDiscoveryUrl")
        for key in Self.endpointKeys { coder.encode(values.endpoints[key], forKey: key) }
        coder.encode(values.idTokenHint, forKey: "idTokenHint")
        coder.encode(values.prompt, forKey: "prompt")
    }

    /// The endpoint keys of GrabID's archive (GrabIdPartnerLogin.swift 1.0.6, lines 102–105).
    static let endpointKeys = ["tokenEndpoint", "authorizationEndpoint", "idTokenVerificationEndpoint", "clientPublicInfoEndpoint"]

    /// Unarchives a session as GrabID does: the client ID, scope and redirect URL are not
    /// archived, so they come back as `""`, `""` and `temp`, and `request` as `""`.
    public required init?(coder: NSCoder) {
        // An archive without a key (an older SDK's) reads as nil, never as a decoding failure.
        func object(_ key: String) -> Any? { coder.containsValue(forKey: key) ? coder.decodeObject(forKey: key) : nil }
        func string(_ key: String) -> String? { object(key) as? String }
        clientId = ""
        values = Locked(Values(redirectUrl: URL(string: "temp") ?? URL(fileURLWithPath: "temp"), scope: "", hint: string("hint") ?? "",
                        idTokenHint: string("idTokenHint") ?? "", prompt: string("prompt") ?? "", request: "", acrValues: nil,
                        serviceDiscoveryUrl: string("serviceDiscoveryUrl") ?? "", code: string("code"),
                        codeVerifier: string("codeVerifier"), state: string("state"), nonce: string("nonce"),
                        tokenType: string("tokenType"),
                        accessTokenExpiresAt: object("accessTokenExpiresAt") as? Date,
                        endpoints: Dictionary(uniqueKeysWithValues: Self.endpointKeys.compactMap { key in string(key).map { (key, $0) } })))
        super.init()
    }

    // MARK: Settings

    func withValues<T>(_ body: (inout Values) -> T) -> T { values.withLock(body) }

    /// The registered redirect URL.
    public var redirectUrl: URL { get { withValues { $0.redirectUrl } } set { withValues { $0.redirectUrl = newValue } } }
    /// The scopes, space-separated.
    public var scope: String { get { withValues { $0.scope } } set { withValues { $0.scope = newValue } } }
    /// The `login_hint`; empty for none.
    public var hint: String { get { withValues { $0.hint } } set { withValues { $0.hint = newValue } } }
    /// The `id_token_hint`; empty for none.
    public var idTokenHint: String { get { withValues { $0.idTokenHint } } set { withValues { $0.idTokenHint = newValue } } }
    /// The `prompt`; empty for none.
    public var prompt: String { get { withValues { $0.prompt } } set { withValues { $0.prompt = newValue } } }
    /// A partner-specific `request` parameter.
    public var request: String? { get { withValues { $0.request } } set { withValues { $0.request = newValue } } }
    /// Partner-specific `acr_values`, sent as `key:value` pairs.
    public var acrValues: [String: String]? { get { withValues { $0.acrValues } } set { withValues { $0.acrValues = newValue } } }
    /// The provider's discovery URL (or its issuer).
    public internal(set) var serviceDiscoveryUrl: String {
        get { withValues { $0.serviceDiscoveryUrl } } set { withValues { $0.serviceDiscoveryUrl = newValue } }
    }

    // MARK: Login state

    /// The authorization code of the redirect handed to `exchangeToken` (a secret).
    public internal(set) var code: String? { get { withValues { $0.code } } set { withValues { $0.code = newValue } } }
    /// The PKCE verifier of the login in progress (a secret).
    public internal(set) var codeVerifier: String? { get { withValues { $0.codeVerifier } } set { withValues { $0.codeVerifier = newValue } } }
    /// The `state` of the login in progress (a secret).
    public internal(set) var state: String? { get { withValues { $0.state } } set { withValues { $0.state = newValue } } }
    /// The `nonce` of the login, which the ID token carries (a secret).
    public internal(set) var nonce: String? { get { withValues { $0.nonce } } set { withValues { $0.nonce = newValue } } }
    /// The `token_type` as the provider sent it.
    public internal(set) var tokenType: String? { get { withValues { $0.tokenType } } set { withValues { $0.tokenType = newValue } } }
    /// The access token once signed in.
    public internal(set) var accessToken: String? { get { withValues { $0.accessToken } } set { withValues { $0.accessToken = newValue } } }
    /// The ID token once signed in.
    public internal(set) var idToken: String? { get { withValues { $0.idToken } } set { withValues { $0.idToken = newValue } } }
    /// The refresh token once signed in.
    public internal(set) var refreshToken: String? { get { withValues { $0.refreshToken } } set { withValues { $0.refreshToken = newValue } } }
    /// When the access token expires; nil when the provider did not say.
    public internal(set) var accessTokenExpiresAt: Date? {
        get { withValues { $0.accessTokenExpiresAt } } set { withValues { $0.accessTokenExpiresAt = newValue } }
    }

    /// Takes the security values of the authorization request a login just built.
    func begin(_ request: AuthorizationRequest) {
        var endpoint = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        endpoint?.query = nil
        withValues {
            if let authorization = endpoint?.string { $0.endpoints["authorizationEndpoint"] = authorization }
            $0.state = request.state
            $0.nonce = request.nonce
            $0.codeVerifier = request.codeVerifier
            $0.code = nil
        }
    }

    /// Takes a session's tokens, or forgets them with nil. A session restored from the store
    /// gets its nonce back from its ID token, as GrabID's restored it from its cache.
    func adopt(_ tokens: SessionTokens?) {
        let idTokenNonce = tokens?.idTokenClaims["nonce"]?.stringValue
        withValues {
            $0.accessToken = tokens?.accessToken
            $0.idToken = tokens?.idToken
            $0.idTokenClaims = tokens?.idTokenClaims ?? [:]
            $0.refreshToken = tokens?.refreshToken
            $0.tokenType = tokens?.tokenType
            $0.accessTokenExpiresAt = tokens?.expiresAt
            if $0.nonce == nil { $0.nonce = idTokenNonce }
        }
    }

    /// The SessionService configuration this session stands for.
    func configuration() throws -> SessionConfiguration {
        let settings = withValues { $0 }
        guard let discovery = URL(string: settings.serviceDiscoveryUrl), discovery.scheme != nil else {
            throw SessionError(.invalidConfiguration, process: .configuration, message: "the service discovery URL is not a URL")
        }
        var extra: [String: String] = [:]
        if let request = settings.request, !request.isEmpty { extra["request"] = request }
        let acr = (settings.acrValues ?? [:]).filter { !$0.key.isEmpty && !$0.value.isEmpty }
        if !acr.isEmpty { extra["acr_values"] = acr.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: " ") }
        if !settings.idTokenHint.isEmpty { extra["id_token_hint"] = settings.idTokenHint }
        return try SessionConfiguration(issuer: ProviderMetadata.issuer(forDiscoveryURL: discovery), clientID: clientId,
                                        redirectURI: settings.redirectUrl,
                                        scopes: settings.scope.split(separator: " ").map(String.init).filter { $0 != "openid" },
                                        prompt: settings.prompt.isEmpty ? nil : settings.prompt,
                                        loginHint: settings.hint.isEmpty ? nil : settings.hint, additionalParameters: extra,
                                        clientAuthentication: settings.clientAuthentication)
    }
}
