import Foundation
import SessionCore
import SessionPermissions

extension LocalProvider {
    /// A subject's state in the permission center.
    public struct PermissionRecord: Sendable, Equatable, Codable {
        /// The ID consent.
        public var idConsent: PermissionStatus?
        /// When the ID consent last changed.
        public var changedAt: String?
        /// The IAB TC string.
        public var iabTcString: String?
        /// When the TC string last changed.
        public var iabTcStringChangedAt: String?

        /// Creates a record.
        public init(idConsent: PermissionStatus? = nil, changedAt: String? = nil, iabTcString: String? = nil,
                    iabTcStringChangedAt: String? = nil) {
            self.idConsent = idConsent
            self.changedAt = changedAt
            self.iabTcString = iabTcString
            self.iabTcStringChangedAt = iabTcStringChangedAt
        }
    }
}
