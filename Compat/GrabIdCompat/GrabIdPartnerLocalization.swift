/// GrabID's error messages, the texts its errors carry in `localizeMessage`. The raw value is the
/// text; a text that is none of them stands for ``somethingWentWrong``.
public enum GrabIdPartnerLocalization: RawRepresentable, Sendable, CaseIterable {
    /// "Invalid Url."
    case invalidUrl
    /// "Security validation failed."
    case securityValidationFailed
    /// "Authorization initialization failed."
    case authorizationInitializationFailure
    /// "Invalid response from GrabId Partner service."
    case invalidResponse
    /// "Logout failed."
    case logoutFailed
    /// "Invalid idToken."
    case invalidIdToken
    /// "Invalid Nonce."
    case invalidNonce
    /// "Configuration error."
    case invalidConfiguration
    /// "Unknown."
    case somethingWentWrong
    /// "Invalid client id."
    case invalidClientId
    /// "Invalid scope."
    case invalidScope
    /// "Invalid redirect url."
    case invalidRedirectUrl
    /// "GrabId service error."
    case serviceError
    /// "App bundle is invalid"
    case invalidAppBundle
    /// "Invalid custom protocol url"
    case invalidCustomProtocolUrl

    /// The message text.
    public var rawValue: String {
        switch self {
        case .invalidUrl: "Invalid Url."
        case .securityValidationFailed: "Security validation failed."
        case .authorizationInitializationFailure: "Authorization initialization failed."
        case .invalidResponse: "Invalid response from GrabId Partner service."
        case .logoutFailed: "Logout failed."
        case .invalidIdToken: "Invalid idToken."
        case .invalidNonce: "Invalid Nonce."
        case .invalidConfiguration: "Configuration error."
        case .somethingWentWrong: "Unknown."
        case .invalidClientId: "Invalid client id."
        case .invalidScope: "Invalid scope."
        case .invalidRedirectUrl: "Invalid redirect url."
        case .serviceError: "GrabId service error."
        case .invalidAppBundle: "App bundle is invalid"
        case .invalidCustomProtocolUrl: "Invalid custom protocol url"
        }
    }

    /// The message whose text is `rawValue`, ``somethingWentWrong`` for any other text (never nil).
    public init?(rawValue: String) {
        self = Self.allCases.first { $0.rawValue == rawValue } ?? .somethingWentWrong
    }
}
