import Foundation
import SessionCore

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
