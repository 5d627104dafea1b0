import SessionCore
import SessionPermissions

/// The permission center's `status_code`, with netID's case names and raw values. Values this
/// version does not know decode as ``UNKNOWN``.
public enum PermissionResponseStatus: String, Codable, Sendable, CaseIterable {
    /// The user has permissions; the response carries them.
    case PERMISSIONS_FOUND = "PERMISSIONS_FOUND"
    /// The permission center holds no permissions for the user.
    case PERMISSIONS_NOT_FOUND = "PERMISSIONS_NOT_FOUND"
    /// A permission in the request is malformed or not allowed.
    case PERMISSION_PARAMETERS_ERROR = "PERMISSION_PARAMETERS_ERROR"
    /// The request carried no bearer token.
    case NO_TOKEN = "NO_TOKEN"
    /// No usable permission token: the session has none, or the center refused it.
    case TOKEN_ERROR = "TOKEN_ERROR"
    /// A write named no permission to change.
    case NO_PERMISSIONS = "NO_PERMISSIONS"
    /// A body is not the JSON expected.
    case JSON_PARSE_ERROR = "JSON_PARSE_ERROR"
    /// A write came without a body.
    case NO_REQUEST_BODY = "NO_REQUEST_BODY"
    /// The client may not use the permission center.
    case TAPP_NOT_ALLOWED = "TAPP_NOT_ALLOWED"
    /// The user's account no longer exists.
    case TPID_EXISTENCE_ERROR = "TPID_EXISTENCE_ERROR"
    /// No tag protocol identifier exists for the user.
    case NO_TPID = "NO_TPID"
    /// The request does not identify the client (TAPP).
    case NO_TAPP_ID = "NO_TAPP_ID"
    /// The client's (TAPP's) registration is faulty.
    case TAPP_ERROR = "TAPP_ERROR"
    /// The request needs an ID consent the user has not given.
    case ID_CONSENT_REQUIRED = "ID_CONSENT_REQUIRED"
    /// A status this version does not know, or none (transport failures, successful answers).
    case UNKNOWN = "UNKNOWN"

    /// Decodes a status string; a value this version does not know becomes ``UNKNOWN``.
    public init(from decoder: Decoder) throws {
        self = Self(rawValue: try decoder.singleValueContainer().decode(String.self)) ?? .UNKNOWN
    }

    init(_ status: SessionPermissions.PermissionCenterStatus) {
        self = Self(rawValue: status.rawValue) ?? .UNKNOWN
    }
}
