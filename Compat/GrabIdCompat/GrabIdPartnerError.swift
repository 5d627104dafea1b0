import Foundation

/// Where a GrabID error came from (GrabID's raw values 0...8).
public enum GrabIdPartnerErrorDomain: Int, Sendable, CaseIterable {
    /// Loading the provider's metadata.
    case serviceDiscovery
    /// Reading or checking the login-session settings.
    case loadConfiguration
    /// `login`.
    case authorization
    /// `exchangeToken`.
    case exchangeToken
    /// `getIdTokenInfo`.
    case getIdTokenInfo
    /// `logout`.
    case logout
    /// A call of the app's own to a protected resource.
    case protectedResource
    /// Looking up Grab apps that can sign in (not done here).
    case customProtocolsService
    /// Sending the user to the App Store (not done here).
    case appStore
}

/// What went wrong (GrabID's raw values: 0...28 in GrabID's order, `partnerAppError` 10000).
public enum GrabIdPartnerErrorCode: Int, Sendable, CaseIterable {
    /// The provider failed or could not be reached.
    case grabIdServiceFailed
    /// The provider's metadata could not be loaded.
    case discoveryServiceFailed
    /// The ID-token information could not be read.
    case idTokenInfoServiceFailed
    /// The code exchange failed.
    case exchangeTokenServiceFailed
    /// The login could not be prepared.
    case authorizationInitializationFailure
    /// The redirect carries an error, or its `state` is not the login's.
    case securityValidationFailed
    /// There was no session to log out of.
    case logoutFailed
    /// The ID token is missing, invalid or expired.
    case invalidIdToken
    /// The login session has no nonce, or the ID token carries another.
    case invalidNonce
    /// The settings are missing.
    case invalidConfiguration
    /// Anything else.
    case somethingWentWrong
    /// A network problem.
    case network
    /// The client ID is missing or unknown.
    case invalidClientId
    /// The scope is missing or invalid.
    case invalidScope
    /// The redirect URL is missing or invalid.
    case invalidRedirectUrl
    /// The authorization code was refused.
    case invalidAuthorizationCode
    /// A URL is invalid.
    case invalidUrl
    /// The partner ID is missing.
    case invalidPartnerId
    /// The app or its token is not authorized.
    case unAuthorized
    /// The authorization failed or was refused.
    case authorizationFailed
    /// The provider is unavailable.
    case serviceUnavailable
    /// The provider returned an error.
    case serviceError
    /// The access token is invalid.
    case invalidAccessToken
    /// The provider's answer is not what was expected.
    case invalidResponse
    /// The service discovery URL is invalid.
    case invalidServiceDiscoveryUrl
    /// The app bundle is missing.
    case invalidAppBundle
    /// The URL for Grab apps is invalid.
    case invalidCustomProtocolUrl
    /// The App Store link could not be opened.
    case failedTolaunchAppStoreLink
    /// The user was sent to the App Store.
    case launchAppStoreLink
    /// Errors of the partner app itself are 10000 and above.
    case partnerAppError = 10000
}

/// A GrabID error: its domain and code, a readable message, and the error behind it (a
/// `SessionError` when SessionService produced it). As GrabID's, it is an `NSObject`, not a
/// Swift `Error`.
///
/// `@unchecked Sendable` (an open class, as GrabID declares it, which the compiler cannot check):
/// every stored property is a `let` of a Sendable type, so apps can hand
/// errors to another queue, as GrabID's example app does.
open class GrabIdPartnerError: NSObject, @unchecked Sendable {
    /// The domain.
    public let domain: GrabIdPartnerErrorDomain
    /// The code.
    public let code: GrabIdPartnerErrorCode
    /// A readable message (never a token).
    public let localizeMessage: String?
    /// The network or service error behind it.
    public let serviceError: Error?

    /// Creates an error.
    public init(code: GrabIdPartnerErrorCode, localizeMessage: String? = nil, domain: GrabIdPartnerErrorDomain, serviceError: Error? = nil) {
        self.code = code
        self.localizeMessage = localizeMessage
        self.domain = domain
        self.serviceError = serviceError
        super.init()
    }
}
