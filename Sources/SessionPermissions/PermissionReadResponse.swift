import Foundation
import SessionCore

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
