import Foundation
import SessionPermissions

/// What went wrong, in netID's terms.
public struct NetIdError: Error, Sendable, Equatable {
    /// The kind of error.
    public var code: NetIdErrorCode
    /// The operation it came from.
    public var process: NetIdErrorProcess
    /// What happened, for people debugging an integration (never a token).
    public var msg: String?

    /// Creates an error.
    public init(code: NetIdErrorCode, process: NetIdErrorProcess, msg: String? = nil) {
        self.code = code
        self.process = process
        self.msg = msg
    }
}

/// netID's error codes, with netID's raw values. <doc:MigratingFromNetID> lists the SessionError codes
/// behind each.
public enum NetIdErrorCode: String, Sendable, CaseIterable {
    /// No complete answer in time.
    case Timeout
    /// No usable session: not signed in, the sign-in failed, or the provider refused the token.
    case NoAuth
    /// No connection could be made.
    case NetworkError
    /// A body that is not the JSON expected.
    case JsonDeserializationError
    /// A successful answer without the data expected.
    case ResponseDataMissing
    /// The provider's metadata could not be loaded or is not usable.
    case InvalidDiscoveryDocument
    /// A transport failure after the request was sent, or a refusal without details.
    case Unknown
    /// The user or the app cancelled the authorization.
    case AuthorizationCanceledByUser
    /// No browser could be opened.
    case MissingBrowser
    /// The request was refused as invalid.
    case InvalidRequest
    /// The client, or its token, is not allowed to do this.
    case UnauthorizedClient
    /// The user denied the request.
    case AccessDenied
    /// The provider does not support the response type.
    case UnsupportedResponseType
    /// A requested scope is invalid.
    case InvalidScope
    /// The provider failed.
    case ServerError
    /// The configuration is not valid, or the service is not initialized.
    case InitializationError
    /// The provider is temporarily unavailable.
    case TemporarilyUnavailable
    /// The client's request or configuration is at fault.
    case ClientError
    /// The redirect's `state` does not match the pending authorization.
    case StateMismatch
    /// No account-provider app is installed (never reported here: there are no apps to look for).
    case NoIdAppInstalled
    /// Anything else.
    case Other
}

/// The operation an error came from.
public enum NetIdErrorProcess: String, Sendable, CaseIterable {
    /// `initialize`.
    case Configuration
    /// `authorize`, the restore of a stored session, and `endSession`.
    case Authentication
    /// `fetchUserInfo`.
    case UserInfo
    /// `fetchPermissions`.
    case PermissionRead
    /// `updatePermission`.
    case PermissionWrite
}
