import Foundation

extension SessionError.Code {
    /// The code for an OAuth 2.0 / OpenID Connect / RFC 6750 `error` string. Unknown strings
    /// become ``oauthError``; the original string is kept by the caller in `SessionError.oauthError`.
    init(oauthError: String) {
        switch oauthError {
        case "access_denied": self = .accessDenied
        case "invalid_request": self = .invalidRequest
        case "unauthorized_client": self = .unauthorizedClient
        case "unsupported_response_type": self = .unsupportedResponseType
        case "invalid_scope": self = .invalidScope
        case "server_error": self = .serverError
        case "temporarily_unavailable": self = .temporarilyUnavailable
        case "invalid_grant": self = .invalidGrant
        case "invalid_client": self = .invalidClient
        case "unsupported_grant_type": self = .unsupportedGrantType
        case "interaction_required": self = .interactionRequired
        case "login_required": self = .loginRequired
        case "consent_required": self = .consentRequired
        case "invalid_token": self = .invalidToken
        case "insufficient_scope": self = .insufficientScope
        case "expired_token": self = .expiredToken
        case "invalid_target": self = .invalidTarget
        case "insufficient_user_authentication": self = .insufficientUserAuthentication
        default: self = .oauthError
        }
    }
}
