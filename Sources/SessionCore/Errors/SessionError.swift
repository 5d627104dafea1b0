import Foundation

/// The one error type of SessionService.
///
/// Every failure the core or the facade reports is a `SessionError`: a ``Code`` that says
/// what went wrong, the ``Process`` it happened in, the provider's own OAuth `error` and
/// `error_description` when the provider sent them, and a human-readable message.
///
/// A `SessionError` never contains a token, an authorization code, a PKCE verifier or a `state`
/// value: messages are written by the package and server strings are kept only in their own
/// fields. See the "Error codes" article for what produces each code.
public struct SessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The operation family an error came from, in the netID sense of "process". The core's are
    /// below; a module with operations of its own adds its processes (SessionPermissions adds
    /// `permissionRead` and `permissionWrite`).
    public struct Process: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The process's name, as ``SessionError/description`` shows it.
        public let rawValue: String

        /// A process named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The name.
        public var description: String { rawValue }

        /// Validating the configuration, discovery, restoring a stored session.
        public static let configuration = Process(rawValue: "configuration")

        /// Authorization, code exchange, ID-token validation and refresh.
        public static let authentication = Process(rawValue: "authentication")

        /// The UserInfo request.
        public static let userInfo = Process(rawValue: "userInfo")

        /// Signing out, locally or with revocation.
        public static let endSession = Process(rawValue: "endSession")
    }

    /// What went wrong: the core's codes below, each explained in the "Error codes" article; a
    /// module that talks to a resource server of its own adds its codes (SessionPermissions adds
    /// `permissionRequestFailed`). Compare with `==` or match in a `switch`.
    public struct Code: RawRepresentable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        /// The code's name, as ``SessionError/description`` shows it.
        public let rawValue: String

        /// A code named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The name.
        public var description: String { rawValue }

        // Configuration and lifecycle
        /// A configuration value breaks a rule, or a needed endpoint is not configured.
        public static let invalidConfiguration = Code(.invalidConfiguration)
        /// A facade operation ran before `initialize`.
        public static let notInitialized = Code(.notInitialized)
        /// The facade was initialized twice.
        public static let alreadyInitialized = Code(.alreadyInitialized)
        /// The discovery document is missing, malformed or insecure.
        public static let invalidDiscoveryDocument = Code(.invalidDiscoveryDocument)
        /// The discovery document names another issuer.
        public static let issuerMismatch = Code(.issuerMismatch)
        /// The provider lacks something required (code flow, PKCE S256, an endpoint).
        public static let unsupportedProviderFeature = Code(.unsupportedProviderFeature)

        // Transport
        /// No connection could be made: the request certainly did not reach the provider.
        public static let cannotConnect = Code(.cannotConnect)
        /// The connection broke after the request was sent: the provider may have processed it.
        public static let networkError = Code(.networkError)
        /// No complete response in time.
        public static let timeout = Code(.timeout)
        /// A response body over 1 MiB.
        public static let responseTooLarge = Code(.responseTooLarge)
        /// A status the call does not expect, without an OAuth error.
        public static let unexpectedResponse = Code(.unexpectedResponse)
        /// A response body that is not what the call expects.
        public static let invalidResponse = Code(.invalidResponse)

        // Authorization response (redirect)
        /// The callback does not address the redirect URI.
        public static let redirectURIMismatch = Code(.redirectURIMismatch)
        /// A callback parameter appears twice.
        public static let duplicateParameter = Code(.duplicateParameter)
        /// `state` is missing or wrong, or no authorization is pending.
        public static let stateMismatch = Code(.stateMismatch)
        /// The callback's `iss` is not the issuer (RFC 9207).
        public static let authorizationIssuerMismatch = Code(.authorizationIssuerMismatch)
        /// The callback lacks `iss` although the provider declares it.
        public static let authorizationIssuerMissing = Code(.authorizationIssuerMissing)
        /// The callback has neither `code` nor `error`.
        public static let missingAuthorizationCode = Code(.missingAuthorizationCode)
        /// The user or the app cancelled the authorization.
        public static let cancelled = Code(.cancelled)
        /// The authorization agent failed with an error of its own (the browser could not be
        /// opened, for instance); the message names the error's type.
        public static let authorizationAgentFailed = Code(.authorizationAgentFailed)

        // OAuth 2.0 error responses (RFC 6749 §4.1.2.1, §5.2; OIDC Core §3.1.2.6)
        /// OAuth `access_denied`.
        public static let accessDenied = Code(.accessDenied)
        /// OAuth `invalid_request`.
        public static let invalidRequest = Code(.invalidRequest)
        /// OAuth `unauthorized_client`.
        public static let unauthorizedClient = Code(.unauthorizedClient)
        /// OAuth `unsupported_response_type`.
        public static let unsupportedResponseType = Code(.unsupportedResponseType)
        /// OAuth `invalid_scope`.
        public static let invalidScope = Code(.invalidScope)
        /// OAuth `server_error`, or an HTTP 5xx.
        public static let serverError = Code(.serverError)
        /// OAuth `temporarily_unavailable`.
        public static let temporarilyUnavailable = Code(.temporarilyUnavailable)
        /// OAuth `invalid_grant`.
        public static let invalidGrant = Code(.invalidGrant)
        /// OAuth `invalid_client`.
        public static let invalidClient = Code(.invalidClient)
        /// OAuth `unsupported_grant_type`.
        public static let unsupportedGrantType = Code(.unsupportedGrantType)
        /// OIDC `interaction_required`.
        public static let interactionRequired = Code(.interactionRequired)
        /// OIDC `login_required`.
        public static let loginRequired = Code(.loginRequired)
        /// OIDC `consent_required`.
        public static let consentRequired = Code(.consentRequired)
        /// Another OAuth `error` string; see ``SessionError/oauthError``.
        public static let oauthError = Code(.oauthError)
        /// An RP-initiated logout ended the session here, but the provider's sign-out page did not
        /// come back as asked (cancelled, failed, or with another `state`): the provider's own
        /// session may still be open.
        public static let providerSignOutIncomplete = Code(.providerSignOutIncomplete)
        /// A back-channel logout token broke a rule of OpenID Connect Back-Channel Logout 1.0
        /// §2.6 (``OpenIDProvider/validateLogoutToken(_:maxAge:)``): nothing may be ended for it.
        public static let invalidLogoutToken = Code(.invalidLogoutToken)
        /// RFC 8628 `expired_token`: the device code expired before the user approved it (also
        /// when the client stops polling at its expiry).
        public static let expiredToken = Code(.expiredToken)
        /// RFC 8707 `invalid_target`: the authorization server refused the resource a token was
        /// asked for (unknown, or not this client's). The refresh token is not spent: the session stays.
        public static let invalidTarget = Code(.invalidTarget)
        /// A request to a resource the session holds no token for: its access token was asked for
        /// other resources (``SessionConfiguration/resources``) and none of its resource tokens
        /// covers the URL. Nothing was sent; ask for one with ``SessionClient/tokens(forResource:)``.
        public static let noTokenForResource = Code(.noTokenForResource)
        /// RFC 9470 `insufficient_user_authentication`: the resource wants a fresher or stronger
        /// authentication of the user; also an ID token whose `auth_time` is older than the
        /// `max_age` a sign-in asked for.
        public static let insufficientUserAuthentication = Code(.insufficientUserAuthentication)

        // Bearer token errors (RFC 6750 §3.1)
        /// RFC 6750 `invalid_token`.
        public static let invalidToken = Code(.invalidToken)
        /// RFC 6750 `insufficient_scope`.
        public static let insufficientScope = Code(.insufficientScope)

        // ID token (OIDC Core §3.1.3.7)
        /// The ID token is not a readable JWS or lacks a required claim.
        public static let idTokenMalformed = Code(.idTokenMalformed)
        /// A sign-in with `openid` returned no ID token.
        public static let idTokenMissing = Code(.idTokenMissing)
        /// The ID token's `alg` is not RS256 or ES256.
        public static let idTokenUnsupportedAlgorithm = Code(.idTokenUnsupportedAlgorithm)
        /// No provider key matches the ID token's `kid`.
        public static let idTokenUnknownKey = Code(.idTokenUnknownKey)
        /// The ID token's signature does not verify.
        public static let idTokenSignatureInvalid = Code(.idTokenSignatureInvalid)
        /// The ID token's `iss` is not the issuer.
        public static let idTokenIssuerMismatch = Code(.idTokenIssuerMismatch)
        /// The ID token's `aud` lacks the client ID.
        public static let idTokenAudienceMismatch = Code(.idTokenAudienceMismatch)
        /// The ID token's `azp` is wrong or missing with several audiences.
        public static let idTokenAuthorizedPartyMismatch = Code(.idTokenAuthorizedPartyMismatch)
        /// The ID token has expired.
        public static let idTokenExpired = Code(.idTokenExpired)
        /// The ID token's `iat` is in the future.
        public static let idTokenIssuedInFuture = Code(.idTokenIssuedInFuture)
        /// The ID token's `nbf` is in the future.
        public static let idTokenNotYetValid = Code(.idTokenNotYetValid)
        /// The ID token's `nonce` is not the request's.
        public static let idTokenNonceMismatch = Code(.idTokenNonceMismatch)
        /// A refreshed ID token names another subject.
        public static let idTokenSubjectMismatch = Code(.idTokenSubjectMismatch)

        // Session state
        /// There is no session.
        public static let notAuthenticated = Code(.notAuthenticated)
        /// The session can no longer be used; it was cleared. Sign in again.
        public static let reauthenticationRequired = Code(.reauthenticationRequired)
        /// The session ended while the operation ran.
        public static let sessionEnded = Code(.sessionEnded)
        /// UserInfo's `sub` is not the ID token's.
        public static let userInfoSubjectMismatch = Code(.userInfoSubjectMismatch)

        // Storage and platform
        /// The token store could not read, write or delete.
        public static let storageFailed = Code(.storageFailed)
        /// The stored session is unreadable or belongs to another client.
        public static let storageCorrupt = Code(.storageCorrupt)
        /// The platform crypto library failed or a key is unusable.
        public static let cryptoFailure = Code(.cryptoFailure)

        /// The core's codes, in the order of the "Error codes" article: the one list of them.
        /// Each static member above is made from its case, so none can be left out of
        /// ``allCases``.
        enum Core: String, CaseIterable {
            case invalidConfiguration, notInitialized, alreadyInitialized, invalidDiscoveryDocument, issuerMismatch
            case unsupportedProviderFeature, cannotConnect, networkError, timeout, responseTooLarge
            case unexpectedResponse, invalidResponse, redirectURIMismatch, duplicateParameter, stateMismatch
            case authorizationIssuerMismatch, authorizationIssuerMissing, missingAuthorizationCode, cancelled, authorizationAgentFailed
            case accessDenied, invalidRequest, unauthorizedClient, unsupportedResponseType, invalidScope
            case serverError, temporarilyUnavailable, invalidGrant, invalidClient, unsupportedGrantType
            case interactionRequired, loginRequired, consentRequired, oauthError, expiredToken, invalidTarget, noTokenForResource
            case providerSignOutIncomplete, invalidLogoutToken, invalidToken, insufficientScope, insufficientUserAuthentication
            case idTokenMalformed, idTokenMissing
            case idTokenUnsupportedAlgorithm, idTokenUnknownKey, idTokenSignatureInvalid, idTokenIssuerMismatch, idTokenAudienceMismatch
            case idTokenAuthorizedPartyMismatch, idTokenExpired, idTokenIssuedInFuture, idTokenNotYetValid, idTokenNonceMismatch
            case idTokenSubjectMismatch, notAuthenticated, reauthenticationRequired, sessionEnded, userInfoSubjectMismatch
            case storageFailed, storageCorrupt, cryptoFailure
        }

        private init(_ code: Core) { self.init(rawValue: code.rawValue) }

        /// The core's codes, in the order of the "Error codes" article.
        public static let allCases: [Code] = Core.allCases.map(Code.init)
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
    /// The status a resource server's refusal named in its body, for errors of modules that talk
    /// to one (the permission center's `status_code`, which SessionPermissions reads as
    /// `permissionStatus`).
    public var resourceStatus: String?
    /// A message written by SessionService for people debugging an integration. Never holds secrets.
    public var message: String

    /// Creates an error. `message` must not contain secrets; server strings belong in
    /// `oauthError` / `oauthErrorDescription` / `resourceStatus`.
    public init(
        _ code: Code,
        process: Process,
        message: String,
        oauthError: String? = nil,
        oauthErrorDescription: String? = nil,
        httpStatus: Int? = nil,
        resourceStatus: String? = nil
    ) {
        self.code = code
        self.process = process
        self.message = message
        self.oauthError = oauthError
        self.oauthErrorDescription = oauthErrorDescription
        self.httpStatus = httpStatus
        self.resourceStatus = resourceStatus
    }

    /// `code (process): message`, followed by the provider's error and description when present.
    public var description: String {
        var text = "\(code.rawValue) (\(process.rawValue)): \(message)"
        if let oauthError { text += " [error=\(oauthError)" + (oauthErrorDescription.map { ", description=\($0)" } ?? "") + "]" }
        if let httpStatus { text += " [HTTP \(httpStatus)]" }
        return text
    }

    /// The one way `cancelled` is made: `what` (the authorization, by default) was cancelled, by
    /// the user, the app or task cancellation; `detail` says how, when known.
    package static func cancelled(_ process: Process = .authentication, _ what: String = "the authorization",
                                  detail: String? = nil) -> SessionError {
        SessionError(.cancelled, process: process, message: "\(what) was cancelled" + (detail.map { ": \($0)" } ?? ""))
    }

    /// The one error for a call that needs a session when there is none: `notAuthenticated`.
    package static func noSession(_ process: Process) -> SessionError {
        SessionError(.notAuthenticated, process: process, message: "there is no session")
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
