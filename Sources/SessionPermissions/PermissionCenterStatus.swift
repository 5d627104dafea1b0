import Foundation
import SessionCore

/// The permission center's `status_code`. Unknown values decode as ``unknown``.
public enum PermissionCenterStatus: String, Sendable, Equatable, CaseIterable, Codable {
    /// The user has permissions; the response carries them.
    case permissionsFound = "PERMISSIONS_FOUND"
    /// The permission center holds no permissions for the user.
    case permissionsNotFound = "PERMISSIONS_NOT_FOUND"
    /// A permission in the request is malformed or not allowed.
    case permissionParametersError = "PERMISSION_PARAMETERS_ERROR"
    /// The request carried no bearer token.
    case noToken = "NO_TOKEN"
    /// The bearer token is invalid or expired: refresh it or sign in again.
    case tokenError = "TOKEN_ERROR"
    /// A write named no permission to change.
    case noPermissions = "NO_PERMISSIONS"
    /// The request body, or the response body, is not the JSON expected.
    case jsonParseError = "JSON_PARSE_ERROR"
    /// A write came without a body.
    case noRequestBody = "NO_REQUEST_BODY"
    /// The client may not use the permission center.
    case tappNotAllowed = "TAPP_NOT_ALLOWED"
    /// The user's account no longer exists.
    case tpidExistenceError = "TPID_EXISTENCE_ERROR"
    /// No tag protocol identifier exists for the user.
    case noTpid = "NO_TPID"
    /// The request does not identify the client (TAPP).
    case noTappId = "NO_TAPP_ID"
    /// The client's (TAPP's) registration is faulty.
    case tappError = "TAPP_ERROR"
    /// The request needs an ID consent the user has not given.
    case idConsentRequired = "ID_CONSENT_REQUIRED"
    /// A status this version does not know, or none.
    case unknown = "UNKNOWN"

    /// Decodes a status string, mapping values this version does not know to ``unknown``.
    public init(from decoder: Decoder) throws {
        self = PermissionCenterStatus(rawValue: try decoder.singleValueContainer().decode(String.self)) ?? .unknown
    }
}
