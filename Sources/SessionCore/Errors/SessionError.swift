import Foundation

/// The one error type of SessionService.
///
/// Every failure the core or the facade reports is a `SessionError`: a closed ``Code`` that says
/// what went wrong, the ``Process`` it happened in, the provider's own OAuth `error` and
/// `error_description` when the provider sent them, and a human-readable message.
///
/// A `SessionError` never contains a token, an authorization code, a PKCE verifier or a `state`
/// value: messages are written by the package and server strings are kept only in their own
/// fields. See the "Error codes" article for what produces each code.
public struct SessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The operation family an error came from, in the netID sense of "process".
    public enum Process: String, Sendable, Equatable, CaseIterable {
        /// Validating the configuration, discovery, restoring a stored session.
        case configuration
        /// Authorization, code exchange, ID-token validation and refresh.
        case authentication
        /// The UserInfo request.
        case userInfo
        /// Reading permissions from the permission center.
        case permissionRead
        /// Writing permissions to the permission center.
        case permissionWrite
        /// Signing out, locally or with revocation.
        case endSession
    }

    /// What went wrong. The list is closed; the "Error codes" article explains each case.
    public enum Code: String, Sendable, Equatable, CaseIterable {
        // Configuration and lifecycle
        case invalidConfiguration
        case notInitialized
        case alreadyInitialized
        case invalidDiscoveryDocument
        case issuerMismatch
        case unsupportedProviderFeature
        // Transport
        case networkError
        case timeout
        case responseTooLarge
        case unexpectedResponse
        case invalidResponse
        // Authorization response (redirect)
        case redirectURIMismatch
        case duplicateParameter
        case stateMismatch
        case authorizationIssuerMismatch
        case authorizationIssuerMissing
        case missingAuthorizationCode
        case cancelled
        // OAuth 2.0 error responses (RFC 6749 §4.1.2.1, §5.2; OIDC Core §3.1.2.6)
        case accessDenied
        case invalidRequest
        case unauthorizedClient
        case unsupportedResponseType
        case invalidScope
        case serverError
        case temporarilyUnavailable
        case invalidGrant
        case invalidClient
        case unsupportedGrantType
        case interactionRequired
        case loginRequired
        case consentRequired
        case oauthError
        // Bearer token errors (RFC 6750 §3.1)
        case invalidToken
        case insufficientScope
        // ID token (OIDC Core §3.1.3.7)
        case idTokenMalformed
        case idTokenMissing
        case idTokenUnsupportedAlgorithm
        case idTokenUnknownKey
        case idTokenSignatureInvalid
        case idTokenIssuerMismatch
        case idTokenAudienceMismatch
        case idTokenAuthorizedPartyMismatch
        case idTokenExpired
        case idTokenIssuedInFuture
        case idTokenNonceMismatch
        case idTokenSubjectMismatch
        // Session state
        case notAuthenticated
        case reauthenticationRequired
        case sessionEnded
        case userInfoSubjectMismatch
        case permissionRequestFailed
        // Storage and platform
        case storageFailed
        case storageCorrupt
        case cryptoFailure
    }

    /// What went wrong.
    public var code: Code
    /// The operation family the error came from.
    public var process: Process
    /// The provider's OAuth `error` string, verbatim, when it sent one.
    public var oauthError: String?
    /// The provider's `error_description`, verbatim, when it sent one.
    public var oauthErrorDescription: String?
    /// The HTTP status of the response that caused the error, when there was a response.
    public var httpStatus: Int?
    /// The permission center's `status_code`, for permission errors.
    public var permissionStatus: PermissionResponseStatus?
    /// A message written by SessionService for people debugging an integration. Never holds secrets.
    public var message: String

    /// Creates an error. `message` must not contain secrets; server strings belong in
    /// `oauthError` / `oauthErrorDescription`.
    public init(
        _ code: Code,
        process: Process,
        message: String,
        oauthError: String? = nil,
        oauthErrorDescription: String? = nil,
        httpStatus: Int? = nil,
        permissionStatus: PermissionResponseStatus? = nil
    ) {
        self.code = code
        self.process = process
        self.message = message
        self.oauthError = oauthError
        self.oauthErrorDescription = oauthErrorDescription
        self.httpStatus = httpStatus
        self.permissionStatus = permissionStatus
    }

    /// `code (process): message`, followed by the provider's error and description when present.
    public var description: String {
        var text = "\(code.rawValue) (\(process.rawValue)): \(message)"
        if let oauthError { text += " [error=\(oauthError)" + (oauthErrorDescription.map { ", description=\($0)" } ?? "") + "]" }
        if let httpStatus { text += " [HTTP \(httpStatus)]" }
        return text
    }

    /// The same error attributed to another process.
    func `in`(_ process: Process) -> SessionError {
        var copy = self
        copy.process = process
        return copy
    }
}

extension SessionError: LocalizedError {
    /// Same as ``description``.
    public var errorDescription: String? { description }
}
