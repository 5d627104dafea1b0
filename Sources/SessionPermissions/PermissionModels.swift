import Foundation
import SessionCore

/// Which pseudonymous identifiers the permission center should return.
public enum IdentifierOption: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    case tagProtocolIdentifier = "TPID"
    case synchronizationIdentifier = "SYNC_ID"
    case encryptedTagProtocolIdentifier = "ETPID"
}

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

/// A consent state: `VALID` or `INVALID`.
public enum PermissionStatus: String, Sendable, Equatable, Codable {
    case valid = "VALID"
    case invalid = "INVALID"
}

/// The user's pseudonymous identifiers.
public struct SubjectIdentifiers: Sendable, Equatable, Codable {
    /// The tag protocol identifier (`tpid`).
    public var tpId: String?
    /// The synchronization identifier (`sync_id`).
    public var syncId: String?
    /// The encrypted tag protocol identifier (`etpid`).
    public var eTpId: String?

    /// Creates identifiers.
    public init(tpId: String? = nil, syncId: String? = nil, eTpId: String? = nil) {
        self.tpId = tpId; self.syncId = syncId; self.eTpId = eTpId
    }

    enum CodingKeys: String, CodingKey { case tpId = "tpid", syncId = "sync_id", eTpId = "etpid" }
}

/// The ID consent and its change time.
public struct IdConsent: Sendable, Equatable, Codable {
    /// Whether the consent is valid.
    public var status: PermissionStatus?
    /// When it last changed, as the permission center wrote it (`changed_at`).
    public var changedAt: String?

    /// Creates a consent record.
    public init(status: PermissionStatus?, changedAt: String?) {
        self.status = status; self.changedAt = changedAt
    }

    enum CodingKeys: String, CodingKey { case status, changedAt = "changed_at" }
}

/// The IAB TC string and its change time.
public struct IabTcString: Sendable, Equatable, Codable {
    /// The TC string.
    public var value: String?
    /// When it last changed, as the permission center wrote it (`changed_at`).
    public var changedAt: String?

    /// Creates a TC string record.
    public init(value: String?, changedAt: String?) {
        self.value = value; self.changedAt = changedAt
    }

    enum CodingKeys: String, CodingKey { case value, changedAt = "changed_at" }
}

/// The user's privacy settings in the permission center.
public struct PrivacySettings: Sendable, Equatable, Codable {
    /// The ID consent (`idconsent`).
    public var idConsent: IdConsent?
    /// The IAB TC string (`iab_tcstring`).
    public var iabTcString: IabTcString?

    /// Creates settings.
    public init(idConsent: IdConsent? = nil, iabTcString: IabTcString? = nil) {
        self.idConsent = idConsent; self.iabTcString = iabTcString
    }

    enum CodingKeys: String, CodingKey { case idConsent = "idconsent", iabTcString = "iab_tcstring" }
}

/// The answer to a permission read.
public struct PermissionReadResponse: Sendable, Equatable, Codable {
    /// The center's `status_code`.
    public var statusCode: PermissionCenterStatus
    /// The identifiers asked for (`subject_identifiers`).
    public var subjectIdentifiers: SubjectIdentifiers?
    /// The privacy settings (`netid_privacy_settings`).
    public var privacySettings: PrivacySettings?

    /// Creates a response.
    public init(statusCode: PermissionCenterStatus, subjectIdentifiers: SubjectIdentifiers?, privacySettings: PrivacySettings?) {
        self.statusCode = statusCode; self.subjectIdentifiers = subjectIdentifiers; self.privacySettings = privacySettings
    }

    enum CodingKeys: String, CodingKey {
        case statusCode = "status_code", subjectIdentifiers = "subject_identifiers", privacySettings = "netid_privacy_settings"
    }
}

/// A permission write: the fields present are changed (netID's `NetIdPermissionUpdate`).
public struct PermissionUpdate: Sendable, Equatable, Codable {
    /// The new ID consent (`idconsent`), or nil to leave it.
    public var idConsent: PermissionStatus?
    /// The new IAB TC string (`iab_tc_string`), or nil to leave it.
    public var iabTcString: String?

    /// Creates an update.
    public init(idConsent: PermissionStatus? = nil, iabTcString: String? = nil) {
        self.idConsent = idConsent; self.iabTcString = iabTcString
    }

    enum CodingKeys: String, CodingKey { case idConsent = "idconsent", iabTcString = "iab_tc_string" }
}

/// The answer to a permission write.
struct PermissionWriteResponse: Decodable {
    var statusCode: PermissionCenterStatus?
    var subjectIdentifiers: SubjectIdentifiers?

    enum CodingKeys: String, CodingKey { case statusCode = "status_code", subjectIdentifiers = "subject_identifiers" }
}
