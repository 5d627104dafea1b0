import Foundation
import SessionCore

/// What went wrong, in netID's terms.
public struct NetIdError: Error, Sendable, Equatable {
    /// The kind of error.
    public var code: NetIdErrorCode
    /// The operation it came from.
    public var process: NetIdErrorProcess
    /// A readable description (never a token).
    public var msg: String?

    /// Creates an error.
    public init(code: NetIdErrorCode, process: NetIdErrorProcess, msg: String? = nil) {
        self.code = code
        self.process = process
        self.msg = msg
    }
}

/// netID's error codes (raw values as netID's).
public enum NetIdErrorCode: String, Sendable, CaseIterable {
    /// netID's codes, in netID's order; see MIGRATION.md for the SessionError codes each stands for.
    case Timeout, NoAuth, NetworkError, JsonDeserializationError, ResponseDataMissing, InvalidDiscoveryDocument, Unknown,
         AuthorizationCanceledByUser, MissingBrowser, InvalidRequest, UnauthorizedClient, AccessDenied, UnsupportedResponseType,
         InvalidScope, ServerError, InitializationError, TemporarilyUnavailable, ClientError, StateMismatch, NoIdAppInstalled, Other
}

/// The operation an error came from.
public enum NetIdErrorProcess: String, Sendable, CaseIterable {
    /// netID's processes; `endSession` errors are reported as `Authentication`.
    case Configuration, Authentication, UserInfo, PermissionRead, PermissionWrite
}

extension NetIdError {
    /// True for transport failures, which netID reports through `didEncounterNetworkError` only.
    static func isNetworkFailure(_ error: SessionError) -> Bool {
        error.code == .networkError || error.code == .timeout
    }

    /// The netID error for a SessionService error. The process is the operation's, never a
    /// neighbour's (netID put `PermissionRead` on UserInfo errors; that is not kept).
    init(_ error: SessionError) {
        self.init(code: Self.code(for: error), process: Self.process(for: error.process), msg: error.message)
    }

    static func process(for process: SessionError.Process) -> NetIdErrorProcess {
        switch process {
        case .configuration: .Configuration
        case .authentication, .endSession: .Authentication
        case .userInfo: .UserInfo
        case .permissionRead: .PermissionRead
        case .permissionWrite: .PermissionWrite
        }
    }

    static func code(for error: SessionError) -> NetIdErrorCode {
        switch error.code {
        case .timeout: .Timeout
        case .networkError: .NetworkError
        case .notAuthenticated, .reauthenticationRequired, .sessionEnded, .invalidToken: .NoAuth
        case .invalidDiscoveryDocument, .issuerMismatch, .unsupportedProviderFeature: .InvalidDiscoveryDocument
        case .invalidConfiguration, .notInitialized, .alreadyInitialized: .InitializationError
        case .cancelled: .AuthorizationCanceledByUser
        case .invalidRequest: .InvalidRequest
        case .unauthorizedClient, .insufficientScope: .UnauthorizedClient
        case .accessDenied: .AccessDenied
        case .unsupportedResponseType: .UnsupportedResponseType
        case .invalidScope: .InvalidScope
        case .serverError: .ServerError
        case .temporarilyUnavailable: .TemporarilyUnavailable
        case .stateMismatch: .StateMismatch
        case .invalidResponse, .responseTooLarge, .idTokenMalformed: .JsonDeserializationError
        case .missingAuthorizationCode, .idTokenMissing: .ResponseDataMissing
        case .invalidGrant, .invalidClient, .unsupportedGrantType, .redirectURIMismatch, .duplicateParameter,
             .authorizationIssuerMismatch, .authorizationIssuerMissing, .idTokenUnsupportedAlgorithm, .idTokenUnknownKey,
             .idTokenSignatureInvalid, .idTokenIssuerMismatch, .idTokenAudienceMismatch, .idTokenAuthorizedPartyMismatch,
             .idTokenExpired, .idTokenIssuedInFuture, .idTokenNonceMismatch, .idTokenSubjectMismatch, .userInfoSubjectMismatch:
            .ClientError
        case .permissionRequestFailed: error.permissionStatus == .tpidExistenceError ? .Other : .InvalidRequest
        case .interactionRequired, .loginRequired, .consentRequired, .oauthError, .unexpectedResponse,
             .storageFailed, .storageCorrupt, .cryptoFailure:
            .Other
        }
    }
}
