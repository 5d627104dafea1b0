import Foundation
import SessionCore

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
