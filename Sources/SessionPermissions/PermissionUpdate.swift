import Foundation
import SessionCore

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
