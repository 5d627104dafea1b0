import Foundation
import LegacySessionReaders
import SessionCore
import SessionPermissions

/// netID's configuration. The legacy initializer is kept; `issuer` and `permissionCenter` are
/// additions (defaulting to netID's production services) so an app or test can point it at
/// another provider, such as SessionTesting's LocalProvider.
public struct NetIdConfig: Sendable {
    /// netID's broker, the issuer of the legacy SDK.
    public static let netIdIssuer = URL(constant: "https://broker.netid.de")

    /// The client ID.
    public var clientId: String
    /// The redirect URI (a universal link or a custom scheme).
    public var redirectUri: String
    /// The OIDC `claims` request, as JSON text.
    public var claims: String?
    /// The `prompt` value for the web flow.
    public var promptWeb: String?
    /// Texts of netID's login layer; kept for source compatibility, not shown (there is no UI).
    public var loginLayerConfig: LoginLayerConfig?
    /// Texts of netID's permission layer; kept for source compatibility, not shown.
    public var permissionLayerConfig: PermissionLayerConfig?
    /// The provider (default: netID's broker).
    public var issuer: URL
    /// The permission center (default: netID's).
    public var permissionCenter: PermissionCenterEndpoints
    /// Whether `initialize` carries over the session netID's SDK left on the device, when it
    /// finds none of its own (``NetIdLegacySession``). An addition; default true.
    public var carriesOverLegacySession = true

    /// The legacy initializer, plus the provider and permission center (netID's by default).
    public init(clientId: String, redirectUri: String, claims: String?, promptWeb: String?,
                loginLayerConfig: LoginLayerConfig?, permissionLayerConfig: PermissionLayerConfig?,
                issuer: URL = NetIdConfig.netIdIssuer, permissionCenter: PermissionCenterEndpoints = .netID) {
        self.clientId = clientId
        self.redirectUri = redirectUri
        self.claims = claims
        self.promptWeb = promptWeb
        self.loginLayerConfig = loginLayerConfig
        self.permissionLayerConfig = permissionLayerConfig
        self.issuer = issuer
        self.permissionCenter = permissionCenter
    }

    /// The SessionService configuration it stands for.
    func sessionConfiguration() throws -> SessionConfiguration {
        guard let redirect = URL(string: redirectUri) else {
            throw SessionError(.invalidConfiguration, process: .configuration, message: "the redirect URI is not a URL")
        }
        return try SessionConfiguration(issuer: issuer, clientID: clientId, redirectURI: redirect, claims: claims,
                                        prompt: promptWeb)
    }
}

/// Texts of netID's login layer. There is no layer here: they are stored, not shown; nil means
/// netID's default text.
public struct LoginLayerConfig: Sendable {
    /// The headline under the logo.
    public var headlineText: String?
    /// The text of an account-provider app's button; `%s` stands for the app's name.
    public var loginText: String?
    /// The text of the continue button.
    public var continueText: String?

    /// Creates a configuration.
    public init(headlineText: String? = nil, loginText: String? = nil, continueText: String? = nil) {
        self.headlineText = headlineText
        self.loginText = loginText
        self.continueText = continueText
    }
}

/// Texts and logo of netID's permission layer. Stored, not shown; nil means netID's default.
public struct PermissionLayerConfig: Sendable {
    /// The name of the logo asset.
    public var logoName: String?
    /// The headline under the logo.
    public var headlineText: String?
    /// The first part of the legal text.
    public var legalText: String?
    /// The text of the continue button.
    public var continueText: String?

    /// Creates a configuration.
    public init(logoName: String? = nil, headlineText: String? = nil, legalText: String? = nil, continueText: String? = nil) {
        self.logoName = logoName
        self.headlineText = headlineText
        self.legalText = legalText
        self.continueText = continueText
    }
}
