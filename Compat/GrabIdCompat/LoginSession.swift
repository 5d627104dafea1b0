import Foundation
import SessionCore

/// One GrabID login: its settings, and the tokens once signed in.
///
/// `code`, `codeVerifier`, `state` and `nonce` stay nil: SessionService keeps those secrets
/// inside its core and never hands them out.
///
/// `@unchecked Sendable`: every property is read and written only while holding `lock`.
public final class LoginSession: @unchecked Sendable {
    private let lock = NSLock()
    private var settings: Settings
    private var tokens: SessionTokens?

    private struct Settings {
        var redirectUrl: URL
        var scope: String
        var request: String?
        var acrValues: [String: String]?
        var hint: String
        var idTokenHint: String
        var prompt: String
        var serviceDiscoveryUrl: String
    }

    /// The client ID.
    public let clientId: String

    /// Creates a session; nothing is checked until `login`.
    public init(clientId: String, redirectUrl: URL, scope: String, request: String? = nil, acrValues: [String: String]? = nil,
                serviceDiscoveryUrl: String, hint: String = "", idTokenHint: String = "", prompt: String = "") {
        self.clientId = clientId
        settings = Settings(redirectUrl: redirectUrl, scope: scope, request: request, acrValues: acrValues, hint: hint,
                            idTokenHint: idTokenHint, prompt: prompt, serviceDiscoveryUrl: serviceDiscoveryUrl)
    }

    private func setting<T>(_ path: WritableKeyPath<Settings, T>) -> T { lock.withLock { settings[keyPath: path] } }
    private func set<T>(_ path: WritableKeyPath<Settings, T>, _ value: T) { lock.withLock { settings[keyPath: path] = value } }

    /// The registered redirect URL.
    public var redirectUrl: URL { get { setting(\.redirectUrl) } set { set(\.redirectUrl, newValue) } }
    /// The scopes, space-separated.
    public var scope: String { get { setting(\.scope) } set { set(\.scope, newValue) } }
    /// A partner-specific `request` parameter.
    public var request: String? { get { setting(\.request) } set { set(\.request, newValue) } }
    /// Partner-specific `acr_values`.
    public var acrValues: [String: String]? { get { setting(\.acrValues) } set { set(\.acrValues, newValue) } }
    /// The `login_hint`.
    public var hint: String { get { setting(\.hint) } set { set(\.hint, newValue) } }
    /// The `id_token_hint`.
    public var idTokenHint: String { get { setting(\.idTokenHint) } set { set(\.idTokenHint, newValue) } }
    /// The `prompt`.
    public var prompt: String { get { setting(\.prompt) } set { set(\.prompt, newValue) } }
    /// The provider's discovery URL (or its issuer).
    public private(set) var serviceDiscoveryUrl: String { get { setting(\.serviceDiscoveryUrl) } set { set(\.serviceDiscoveryUrl, newValue) } }

    /// Not exposed by SessionService (always nil).
    public let code: String? = nil
    /// Not exposed by SessionService (always nil).
    public let codeVerifier: String? = nil
    /// Not exposed by SessionService (always nil).
    public let state: String? = nil
    /// Not exposed by SessionService (always nil).
    public let nonce: String? = nil
    /// `Bearer` once signed in.
    public var tokenType: String? { lock.withLock { tokens == nil ? nil : "Bearer" } }
    /// The access token once signed in.
    public var accessToken: String? { lock.withLock { tokens?.accessToken } }
    /// The ID token once signed in.
    public var idToken: String? { lock.withLock { tokens?.idToken } }
    /// The refresh token once signed in.
    public var refreshToken: String? { lock.withLock { tokens?.refreshToken } }
    /// When the access token expires.
    public var accessTokenExpiresAt: Date? { lock.withLock { tokens?.expiresAt } }

    func adopt(_ tokens: SessionTokens?) { lock.withLock { self.tokens = tokens } }

    /// The SessionService configuration this session stands for.
    func configuration() throws -> SessionConfiguration {
        let settings = lock.withLock { self.settings }
        guard let discovery = URL(string: settings.serviceDiscoveryUrl) else {
            throw SessionError(.invalidConfiguration, process: .configuration, message: "the service discovery URL is not a URL")
        }
        let issuer = ProviderMetadata.issuer(forDiscoveryURL: discovery)
        var extra: [String: String] = [:]
        if let request = settings.request, !request.isEmpty { extra["request"] = request }
        if let acr = settings.acrValues, !acr.isEmpty { extra["acr_values"] = acr.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: " ") }
        if !settings.idTokenHint.isEmpty { extra["id_token_hint"] = settings.idTokenHint }
        return try SessionConfiguration(issuer: issuer, clientID: clientId, redirectURI: settings.redirectUrl,
                                        scopes: settings.scope.split(separator: " ").map(String.init).filter { $0 != "openid" },
                                        prompt: settings.prompt.isEmpty ? nil : settings.prompt,
                                        loginHint: settings.hint.isEmpty ? nil : settings.hint, additionalParameters: extra)
    }
}
