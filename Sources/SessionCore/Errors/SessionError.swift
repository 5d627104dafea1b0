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
        /// A configuration value breaks a rule, or a needed endpoint is not configured.
        case invalidConfiguration
        /// A facade operation ran before `initialize`.
        case notInitialized
        /// The facade was initialized twice.
        case alreadyInitialized
        /// The discovery document is missing, malformed or insecure.
        case invalidDiscoveryDocument
        /// The discovery document names another issuer.
        case issuerMismatch
        /// The provider lacks something required (code flow, PKCE S256, an endpoint).
        case unsupportedProviderFeature
        // Transport
        /// No connection could be made: the request certainly did not reach the provider.
        case cannotConnect
        /// The connection broke after the request was sent: the provider may have processed it.
        case networkError
        /// No complete response in time.
        case timeout
        /// A response body over 1 MiB.
        case responseTooLarge
        /// A status the call does not expect, without an OAuth error.
        case unexpectedResponse
        /// A response body that is not what the call expects.
        case invalidResponse
        // Authorization response (redirect)
        /// The callback does not address the redirect URI.
        case redirectURIMismatch
        /// A callback parameter appears twice.
        case duplicateParameter
        /// `state` is missing or wrong, or no authorization is pending.
        case stateMismatch
        /// The callback's `iss` is not the issuer (RFC 9207).
        case authorizationIssuerMismatch
        /// The callback lacks `iss` although the provider declares it.
        case authorizationIssuerMissing
        /// The callback has neither `code` nor `error`.
        case missingAuthorizationCode
        /// The user or the app cancelled the authorization.
        case cancelled
        /// The authorization agent failed with an error of its own (the browser could not be
        /// opened, for instance); the message names the error's type.
        case authorizationAgentFailed
        // OAuth 2.0 error responses (RFC 6749 §4.1.2.1, §5.2; OIDC Core §3.1.2.6)
        /// OAuth `access_denied`.
        case accessDenied
        /// OAuth `invalid_request`.
        case invalidRequest
        /// OAuth `unauthorized_client`.
        case unauthorizedClient
        /// OAuth `unsupported_response_type`.
        case unsupportedResponseType
        /// OAuth `invalid_scope`.
        case invalidScope
        /// OAuth `server_error`, or an HTTP 5xx.
        case serverError
        /// OAuth `temporarily_unavailable`.
        case temporarilyUnavailable
        /// OAuth `invalid_grant`.
        case invalidGrant
        /// OAuth `invalid_client`.
        case invalidClient
        /// OAuth `unsupported_grant_type`.
        case unsupportedGrantType
        /// OIDC `interaction_required`.
        case interactionRequired
        /// OIDC `login_required`.
        case loginRequired
        /// OIDC `consent_required`.
        case consentRequired
        /// Another OAuth `error` string; see ``SessionError/oauthError``.
        case oauthError
        // Bearer token errors (RFC 6750 §3.1)
        /// RFC 6750 `invalid_token`.
        case invalidToken
        /// RFC 6750 `insufficient_scope`.
        case insufficientScope
        // ID token (OIDC Core §3.1.3.7)
        /// The ID token is not a readable JWS or lacks a required claim.
        case idTokenMalformed
        /// A sign-in with `openid` returned no ID token.
        case idTokenMissing
        /// The ID token's `alg` is not RS256 or ES256.
        case idTokenUnsupportedAlgorithm
        /// No provider key matches the ID token's `kid`.
        case idTokenUnknownKey
        /// The ID token's signature does not verify.
        case idTokenSignatureInvalid
        /// The ID token's `iss` is not the issuer.
        case idTokenIssuerMismatch
        /// The ID token's `aud` lacks the client ID.
        case idTokenAudienceMismatch
        /// The ID token's `azp` is wrong or missing with several audiences.
        case idTokenAuthorizedPartyMismatch
        /// The ID token has expired.
        case idTokenExpired
        /// The ID token's `iat` is in the future.
        case idTokenIssuedInFuture
        /// The ID token's `nbf` is in the future.
        case idTokenNotYetValid
        /// The ID token's `nonce` is not the request's.
        case idTokenNonceMismatch
        /// A refreshed ID token names another subject.
        case idTokenSubjectMismatch
        // Session state
        /// There is no session.
        case notAuthenticated
        /// The session can no longer be used; it was cleared. Sign in again.
        case reauthenticationRequired
        /// The session ended while the operation ran.
        case sessionEnded
        /// UserInfo's `sub` is not the ID token's.
        case userInfoSubjectMismatch
        /// The permission center refused; see ``SessionError/permissionStatus``.
        case permissionRequestFailed
        // Storage and platform
        /// The token store could not read, write or delete.
        case storageFailed
        /// The stored session is unreadable or belongs to another client.
        case storageCorrupt
        /// The platform crypto library failed or a key is unusable.
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
