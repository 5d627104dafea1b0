import Foundation
import SessionCore

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
