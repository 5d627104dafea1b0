import Foundation
import SessionCore

/// netID's user information: `sub` plus the optional standard claims (JSON keys as netID's).
public typealias UserInfo = SessionCore.UserInfo
/// A postal address in netID's UserInfo.
public typealias Address = SessionCore.Address
/// A shipping address in netID's UserInfo (an address with a recipient).
public typealias ShippingAddress = SessionCore.ShippingAddress
/// The pseudonymous identifiers (`tpid`, `sync_id`, `etpid`).
public typealias SubjectIdentifiers = SessionCore.SubjectIdentifiers
/// The permission center's `status_code`, with netID's raw values.
public typealias PermissionResponseStatus = SessionCore.PermissionResponseStatus
/// Which identifiers a permission call asks for: `TPID`, `SYNC_ID`, `ETPID`.
public typealias NetIdIdentifierOption = SessionCore.IdentifierOption

/// The authorization flows of netID.
public enum NetIdAuthFlow: String, Sendable, CaseIterable {
    /// Scope `permission_management` only.
    case Permission
    /// Scope `openid` only.
    case Login
    /// Both scopes.
    case LoginPermission

    var flow: AuthFlow {
        switch self {
        case .Permission: .permission
        case .Login: .login
        case .LoginPermission: .loginPermission
        }
    }
}

/// A consent state, as netID writes it.
public enum NetIdPermissionStatus: String, Sendable, Codable, Equatable {
    /// The consent is given.
    case VALID
    /// The consent is withdrawn.
    case INVALID

    init(_ status: PermissionStatus) {
        self = status == .valid ? .VALID : .INVALID
    }

    var status: PermissionStatus { self == .VALID ? .valid : .invalid }
}

/// The ID consent in the privacy settings (`idconsent`).
public struct IdConsent: Sendable, Codable, Equatable {
    /// `VALID` or `INVALID`.
    public var status: NetIdPermissionStatus?
    /// When it last changed (`changed_at`).
    public var changedAt: String

    /// Creates a consent record.
    public init(status: NetIdPermissionStatus?, changedAt: String) {
        self.status = status
        self.changedAt = changedAt
    }

    enum CodingKeys: String, CodingKey { case status, changedAt = "changed_at" }
}

/// The IAB TC string in the privacy settings (`iab_tcstring`).
public struct IabTcString: Sendable, Codable, Equatable {
    /// The TC string.
    public var value: String
    /// When it last changed (`changed_at`).
    public var changedAt: String

    /// Creates a TC string record.
    public init(value: String, changedAt: String) {
        self.value = value
        self.changedAt = changedAt
    }

    enum CodingKeys: String, CodingKey { case value, changedAt = "changed_at" }
}

/// The user's privacy settings (`netid_privacy_settings`).
public struct NetIdPrivacySettings: Sendable, Codable, Equatable {
    /// `idconsent`.
    public var idConsent: IdConsent?
    /// `iab_tcstring`.
    public var iabTcString: IabTcString?

    /// Creates settings.
    public init(idConsent: IdConsent?, iabTcString: IabTcString?) {
        self.idConsent = idConsent
        self.iabTcString = iabTcString
    }

    enum CodingKeys: String, CodingKey { case idConsent = "idconsent", iabTcString = "iab_tcstring" }
}

/// The answer to a permission read, in netID's shape.
public struct PermissionReadResponse: Sendable, Codable, Equatable {
    /// `status_code`.
    public var statusCode: PermissionResponseStatus
    /// `subject_identifiers`.
    public var subjectIdentifiers: SubjectIdentifiers?
    /// `netid_privacy_settings`.
    public var netIdPrivacySettings: NetIdPrivacySettings?

    /// Creates a response.
    public init(statusCode: PermissionResponseStatus, subjectIdentifiers: SubjectIdentifiers?, netIdPrivacySettings: NetIdPrivacySettings?) {
        self.statusCode = statusCode
        self.subjectIdentifiers = subjectIdentifiers
        self.netIdPrivacySettings = netIdPrivacySettings
    }

    enum CodingKeys: String, CodingKey {
        case statusCode = "status_code", subjectIdentifiers = "subject_identifiers", netIdPrivacySettings = "netid_privacy_settings"
    }

    init(_ response: SessionCore.PermissionReadResponse) {
        let settings = response.privacySettings
        self.init(
            statusCode: response.statusCode,
            subjectIdentifiers: response.subjectIdentifiers,
            netIdPrivacySettings: settings.map { settings in
                NetIdPrivacySettings(
                    idConsent: settings.idConsent.map { IdConsent(status: $0.status.map(NetIdPermissionStatus.init), changedAt: $0.changedAt ?? "") },
                    iabTcString: settings.iabTcString.flatMap { record in
                        record.value.map { IabTcString(value: $0, changedAt: record.changedAt ?? "") }
                    })
            })
    }
}

/// A permission write: the fields given are changed.
public struct NetIdPermissionUpdate: Sendable, Codable, Equatable {
    /// The new ID consent (`idconsent`).
    public var idConsent: NetIdPermissionStatus?
    /// The new IAB TC string (`iab_tc_string`).
    public var iabTc: String?

    /// Creates an update.
    public init(idConsent: NetIdPermissionStatus? = nil, iabTc: String? = nil) {
        self.idConsent = idConsent
        self.iabTc = iabTc
    }

    enum CodingKeys: String, CodingKey { case idConsent = "idconsent", iabTc = "iab_tc_string" }

    var update: PermissionUpdate { PermissionUpdate(idConsent: idConsent?.status, iabTcString: iabTc) }
}
