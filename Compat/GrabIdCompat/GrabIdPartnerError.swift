import Foundation
import SessionCore

/// Where a GrabID error came from.
public enum GrabIdPartnerErrorDomain: Int, Sendable {
    /// GrabID's domains, with their legacy raw values (0...8).
    case serviceDiscovery, loadConfiguration, authorization, exchangeToken, getIdTokenInfo, logout, protectedResource,
         customProtocolsService, appStore
}

/// What went wrong (raw values 0...28 in the legacy order, `partnerAppError` 10000).
public enum GrabIdPartnerErrorCode: Int, Sendable {
    /// GrabID's codes, with their legacy raw values (0...28).
    case grabIdServiceFailed, discoveryServiceFailed, idTokenInfoServiceFailed, exchangeTokenServiceFailed,
         authorizationInitializationFailure, securityValidationFailed, logoutFailed, invalidIdToken, invalidNonce,
         invalidConfiguration, somethingWentWrong, network, invalidClientId, invalidScope, invalidRedirectUrl,
         invalidAuthorizationCode, invalidUrl, invalidPartnerId, unAuthorized, authorizationFailed, serviceUnavailable,
         serviceError, invalidAccessToken, invalidResponse, invalidServiceDiscoveryUrl, invalidAppBundle,
         invalidCustomProtocolUrl, failedTolaunchAppStoreLink, launchAppStoreLink
    /// An error of the partner app itself.
    case partnerAppError = 10000
}

/// A GrabID error: domain, code, a readable message, and the SessionService error behind it.
public final class GrabIdPartnerError: Error, @unchecked Sendable {
    // @unchecked Sendable: every stored property is a `let` of a Sendable value.
    /// The domain.
    public let domain: GrabIdPartnerErrorDomain
    /// The code.
    public let code: GrabIdPartnerErrorCode
    /// A readable message (never a token).
    public let localizeMessage: String?
    /// The underlying error, a ``SessionError`` when SessionService produced it.
    public let serviceError: Error?

    /// Creates an error.
    public init(code: GrabIdPartnerErrorCode, localizeMessage: String?, domain: GrabIdPartnerErrorDomain, serviceError: Error?) {
        self.code = code
        self.localizeMessage = localizeMessage
        self.domain = domain
        self.serviceError = serviceError
    }

    convenience init(_ code: GrabIdPartnerErrorCode, _ domain: GrabIdPartnerErrorDomain, _ message: String, _ cause: SessionError? = nil) {
        self.init(code: code, localizeMessage: message, domain: domain, serviceError: cause)
    }

    /// The GrabID error for a SessionService error met in `domain`.
    convenience init(_ error: SessionError, domain: GrabIdPartnerErrorDomain) {
        self.init(code: Self.code(for: error, in: domain), localizeMessage: error.message, domain: domain, serviceError: error)
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
             .idTokenIssuedInFuture, .idTokenSubjectMismatch:
            return .invalidIdToken
        case .invalidGrant, .missingAuthorizationCode: return .invalidAuthorizationCode
        case .invalidToken, .notAuthenticated, .reauthenticationRequired, .insufficientScope: return .unAuthorized
        case .serverError, .temporarilyUnavailable: return .serviceUnavailable
        case .invalidResponse, .responseTooLarge, .unexpectedResponse: return .invalidResponse
        default: return domain == .exchangeToken ? .exchangeTokenServiceFailed : .somethingWentWrong
        }
    }
}
