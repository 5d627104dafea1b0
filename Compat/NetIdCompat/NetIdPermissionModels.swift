import Foundation
import SessionCore
import SessionPermissions

/// A consent state, as netID writes it.
public enum NetIdPermissionStatus: String, Codable, Sendable, CaseIterable {
    /// The consent is given.
    case VALID = "VALID"
    /// The consent is withdrawn.
    case INVALID = "INVALID"

    init(_ status: PermissionStatus) {
        self = status == .valid ? .VALID : .INVALID
    }

    var status: PermissionStatus { self == .VALID ? .valid : .invalid }
}

/// A permission write: the fields that are not nil are changed.
public struct NetIdPermissionUpdate: Codable, Sendable, Equatable {
    /// The new ID consent (`idconsent`).
    public var idConsent: NetIdPermissionStatus?
    /// The new IAB TC string (`iab_tc_string`).
    public var iabTc: String?

    /// Creates an update.
    public init(idConsent: NetIdPermissionStatus? = nil, iabTc: String? = nil) {
        self.idConsent = idConsent
        self.iabTc = iabTc
    }

    /// The JSON body the permission center receives.
    public var description: String { jsonDescription(of: self) }

    var update: PermissionUpdate { PermissionUpdate(idConsent: idConsent?.status, iabTcString: iabTc) }

    private enum CodingKeys: String, CodingKey { case idConsent = "idconsent", iabTc = "iab_tc_string" }
}

/// The ID consent in the privacy settings (`idconsent`).
public struct NetIdPrivacySettingsIdConsent: Codable, Sendable, Equatable, CustomStringConvertible {
    /// `VALID` or `INVALID`.
    public let status: NetIdPermissionStatus?
    /// When it last changed (`changed_at`), as the permission center wrote it.
    public let changedAt: String

    /// Creates a consent record.
    public init(status: NetIdPermissionStatus, changedAt: String) {
        self.status = status
        self.changedAt = changedAt
    }

    init(_ consent: IdConsent) {
        status = consent.status.map(NetIdPermissionStatus.init)
        changedAt = consent.changedAt ?? ""
    }

    /// The record's JSON text.
    public var description: String { jsonDescription(of: self) }

    private enum CodingKeys: String, CodingKey { case status, changedAt = "changed_at" }
}

/// The IAB TC string in the privacy settings (`iab_tcstring`).
public struct NetIdPrivacySettingsIabTcString: Codable, Sendable, Equatable, CustomStringConvertible {
    /// The TC string.
    public let value: String
    /// When it last changed (`changed_at`), as the permission center wrote it.
    public let changedAt: String

    /// Creates a TC string record.
    public init(value: String, changedAt: String) {
        self.value = value
        self.changedAt = changedAt
    }

    /// The record's JSON text.
    public var description: String { jsonDescription(of: self) }

    private enum CodingKeys: String, CodingKey { case value, changedAt = "changed_at" }
}

/// The user's privacy settings (`netid_privacy_settings`), in the shape of netID 1.2.
public struct NetIdPrivacySettings: Codable, Sendable, Equatable, CustomStringConvertible {
    /// `idconsent`.
    public let idConsent: NetIdPrivacySettingsIdConsent?
    /// `iab_tcstring`.
    public let iabTcString: NetIdPrivacySettingsIabTcString?

    /// Creates settings with both records.
    public init(idConsent: NetIdPrivacySettingsIdConsent, iabTcString: NetIdPrivacySettingsIabTcString) {
        self.idConsent = idConsent
        self.iabTcString = iabTcString
    }

    init(_ settings: PrivacySettings) {
        idConsent = settings.idConsent.map(NetIdPrivacySettingsIdConsent.init)
        iabTcString = settings.iabTcString.flatMap { record in
            record.value.map { NetIdPrivacySettingsIabTcString(value: $0, changedAt: record.changedAt ?? "") }
        }
    }

    /// The settings' JSON text.
    public var description: String { jsonDescription(of: self) }

    private enum CodingKeys: String, CodingKey { case idConsent = "idconsent", iabTcString = "iab_tcstring" }
}

/// The user's pseudonymous identifiers (`tpid`, `sync_id`, `etpid`).
public struct SubjectIdentifiers: Codable, Sendable, Equatable, CustomStringConvertible {
    /// The tag protocol identifier (`tpid`).
    public let tpId: String?
    /// The synchronization identifier (`sync_id`).
    public let syncId: String?
    /// The encrypted tag protocol identifier (`etpid`).
    public let eTpId: String?

    /// Creates identifiers.
    public init(tpId: String, syncId: String, eTpId: String) {
        self.tpId = tpId
        self.syncId = syncId
        self.eTpId = eTpId
    }

    init(_ identifiers: SessionPermissions.SubjectIdentifiers) {
        tpId = identifiers.tpId
        syncId = identifiers.syncId
        eTpId = identifiers.eTpId
    }

    /// The identifiers' JSON text.
    public var description: String { jsonDescription(of: self) }

    private enum CodingKeys: String, CodingKey { case tpId = "tpid", syncId = "sync_id", eTpId = "etpid" }
}

/// The answer to a permission read.
public struct PermissionReadResponse: Codable, Sendable, Equatable, CustomStringConvertible {
    /// `status_code`.
    public let statusCode: PermissionResponseStatus
    /// `subject_identifiers`: the identifiers asked for.
    public let subjectIdentifiers: SubjectIdentifiers?
    /// `netid_privacy_settings`.
    public let netIdPrivacySettings: NetIdPrivacySettings?

    /// Creates a response.
    public init(statusCode: PermissionResponseStatus, subjectIdentifiers: SubjectIdentifiers, netIdPrivacySettings: NetIdPrivacySettings) {
        self.statusCode = statusCode
        self.subjectIdentifiers = subjectIdentifiers
        self.netIdPrivacySettings = netIdPrivacySettings
    }

    init(_ response: SessionPermissions.PermissionReadResponse) {
        statusCode = PermissionResponseStatus(response.statusCode)
        subjectIdentifiers = response.subjectIdentifiers.map(SubjectIdentifiers.init)
        netIdPrivacySettings = response.privacySettings.map(NetIdPrivacySettings.init)
    }

    /// The response's JSON text.
    public var description: String { jsonDescription(of: self) }

    private enum CodingKeys: String, CodingKey {
        case statusCode = "status_code", subjectIdentifiers = "subject_identifiers", netIdPrivacySettings = "netid_privacy_settings"
    }
}

/// The answer to a successful permission write.
public struct PermissionUpdateResponse: Codable, Sendable, Equatable, CustomStringConvertible {
    /// `subject_identifiers`: the identifiers asked for.
    public let subjectIdentifiers: SubjectIdentifiers

    /// Creates a response.
    public init(subjectIdentifiers: SubjectIdentifiers) {
        self.subjectIdentifiers = subjectIdentifiers
    }

    /// The response's JSON text.
    public var description: String { jsonDescription(of: self) }

    private enum CodingKeys: String, CodingKey { case subjectIdentifiers = "subject_identifiers" }
}

/// The body of a refused permission write.
public struct PermissionUpdateErrorResponse: Codable, Sendable, Equatable, CustomStringConvertible {
    /// `status_code`: why it was refused.
    public let statusCode: PermissionResponseStatus

    /// Creates a response.
    public init(statusCode: PermissionResponseStatus) {
        self.statusCode = statusCode
    }

    /// The response's JSON text.
    public var description: String { jsonDescription(of: self) }

    private enum CodingKeys: String, CodingKey { case statusCode = "status_code" }
}
