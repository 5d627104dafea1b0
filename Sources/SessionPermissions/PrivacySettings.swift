import Foundation
import SessionCore

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
