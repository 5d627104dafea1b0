import Foundation
import SessionCore

extension GrabIdPartnerError {
    /// An error with GrabID's message for `code` (``GrabIdPartnerLocalization``), or `message`
    /// where GrabID has none.
    convenience init(_ code: GrabIdPartnerErrorCode, _ domain: GrabIdPartnerErrorDomain, _ message: String? = nil, cause: SessionError? = nil) {
        let text = GrabIdPartnerLocalization(code: code)?.rawValue ?? message ?? cause?.message
        self.init(code: code, localizeMessage: text, domain: domain, serviceError: cause)
    }

    /// The GrabID error for a SessionService error met in `domain`.
    convenience init(_ error: SessionError, domain: GrabIdPartnerErrorDomain) {
        self.init(Self.code(for: error, in: domain), domain, cause: error)
    }

    private static func code(for error: SessionError, in domain: GrabIdPartnerErrorDomain) -> GrabIdPartnerErrorCode {
        switch error.code {
        case .cannotConnect, .networkError, .timeout: return .network
        case .invalidDiscoveryDocument, .issuerMismatch, .unsupportedProviderFeature: return .discoveryServiceFailed
        case .invalidConfiguration: return .invalidConfiguration
        case .invalidClient, .unauthorizedClient: return .invalidClientId
        case .invalidScope: return .invalidScope
        case .stateMismatch, .redirectURIMismatch, .duplicateParameter, .authorizationIssuerMismatch, .authorizationIssuerMissing:
            return .securityValidationFailed
        case .accessDenied, .cancelled, .loginRequired, .consentRequired, .interactionRequired:
            return domain == .exchangeToken ? .securityValidationFailed : .authorizationFailed
        case .idTokenNonceMismatch: return .invalidNonce
        case .idTokenMalformed, .idTokenMissing, .idTokenUnsupportedAlgorithm, .idTokenUnknownKey, .idTokenSignatureInvalid,
             .idTokenIssuerMismatch, .idTokenAudienceMismatch, .idTokenAuthorizedPartyMismatch, .idTokenExpired,
             .idTokenIssuedInFuture, .idTokenNotYetValid, .idTokenSubjectMismatch:
            return .invalidIdToken
        case .invalidGrant, .missingAuthorizationCode: return .invalidAuthorizationCode
        case .invalidToken, .notAuthenticated, .reauthenticationRequired, .insufficientScope: return .unAuthorized
        case .serverError, .temporarilyUnavailable: return .serviceUnavailable
        case .invalidResponse, .responseTooLarge, .unexpectedResponse: return .invalidResponse
        default: return domain == .exchangeToken ? .exchangeTokenServiceFailed : .somethingWentWrong
        }
    }
}

extension GrabIdPartnerLocalization {
    /// GrabID's message for `code`, when it has one.
    init?(code: GrabIdPartnerErrorCode) {
        switch code {
        case .invalidUrl: self = .invalidUrl
        case .securityValidationFailed: self = .securityValidationFailed
        case .authorizationInitializationFailure: self = .authorizationInitializationFailure
        case .invalidResponse: self = .invalidResponse
        case .logoutFailed: self = .logoutFailed
        case .invalidIdToken: self = .invalidIdToken
        case .invalidNonce: self = .invalidNonce
        case .invalidConfiguration: self = .invalidConfiguration
        case .somethingWentWrong: self = .somethingWentWrong
        case .invalidClientId: self = .invalidClientId
        case .invalidScope: self = .invalidScope
        case .invalidRedirectUrl: self = .invalidRedirectUrl
        case .serviceError: self = .serviceError
        case .invalidAppBundle: self = .invalidAppBundle
        case .invalidCustomProtocolUrl: self = .invalidCustomProtocolUrl
        default: return nil
        }
    }
}
