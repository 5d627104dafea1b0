import Foundation
import SessionCore

/// Which pseudonymous identifiers the permission center should return.
public enum IdentifierOption: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    case tagProtocolIdentifier = "TPID"
    case synchronizationIdentifier = "SYNC_ID"
    case encryptedTagProtocolIdentifier = "ETPID"
}
