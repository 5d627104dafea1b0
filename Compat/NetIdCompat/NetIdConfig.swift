import Foundation
import SessionCore

/// netID's configuration. The legacy initializer is kept; `issuer` and `permissionCenter` are
/// additions (defaulting to netID's production services) so an app or test can point it at
/// another provider, such as SessionTesting's LocalProvider.
public struct NetIdConfig: Sendable {
    /// netID's broker, the issuer of the legacy SDK.
    public static let netIdIssuer = URL(string: "https://broker.netid.de") ?? URL(fileURLWithPath: "/")

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
                                        prompt: promptWeb, permissionCenter: permissionCenter)
    }
}

/// Texts of netID's login layer. There is no UI here, so they are stored and not shown.
public struct LoginLayerConfig: Sendable {
    /// The headline.
    public var headlineText: String
    /// The login button text (`%s` for the app name).
    public var loginText: String
    /// The continue button text.
    public var continueText: String

    /// Creates a configuration; empty texts mean netID's defaults.
    public init(headlineText: String = "", loginText: String = "", continueText: String = "") {
        self.headlineText = headlineText
        self.loginText = loginText
        self.continueText = continueText
    }
}

/// Texts of netID's permission layer. Stored and not shown.
public struct PermissionLayerConfig: Sendable {
    /// The logo resource name.
    public var logoName: String
    /// The headline.
    public var headlineText: String
    /// The legal text.
    public var legalText: String
    /// The continue button text.
    public var continueText: String

    /// Creates a configuration; empty texts mean netID's defaults.
    public init(logoName: String = "", headlineText: String = "", legalText: String = "", continueText: String = "") {
        self.logoName = logoName
        self.headlineText = headlineText
        self.legalText = legalText
        self.continueText = continueText
    }
}
