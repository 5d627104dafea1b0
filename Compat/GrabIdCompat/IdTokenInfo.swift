import Foundation
import SessionCore

/// What a GrabID ID token says. GrabID asked its token-info endpoint; here the fields are read
/// from the ID token SessionService validated at sign-in (signature, issuer, audience, expiry,
/// nonce), with the claim names GrabID's ID tokens use: `aud`, `svc`, `nbf`, `exp`, `iat`, `iss`,
/// `jti`, `pid`, `sub`, `nonce`. A claim the provider does not issue leaves its field nil.
///
/// `@unchecked Sendable` (an open class, as GrabID declares it, which the compiler cannot check):
/// every stored property is a `let` of a Sendable type.
open class IdTokenInfo: NSObject, NSCoding, @unchecked Sendable {
    /// `aud`: the client the token is for.
    public let audience: String?
    /// `svc`: the Grab service (such as `PASSENGER`).
    public let service: String?
    /// `nbf`: when the token becomes valid.
    public let notValidBefore: Date?
    /// `exp`: when the token expires.
    public let expiration: Date?
    /// `iat`: when the token was issued.
    public let issueDate: Date?
    /// `iss`: the issuer.
    public let issuer: String?
    /// `jti`: the token's identifier.
    public let tokenId: String?
    /// `pid`: the partner ID.
    public let partnerId: String?
    /// `sub`: the user's ID for this partner.
    public let partnerUserId: String?
    /// `nonce`: the login's nonce.
    public let nonce: String?

    init(claims: [String: JSONValue]) {
        func text(_ name: String) -> String? { claims[name]?.stringValue ?? claims[name]?.arrayValue?.first?.stringValue }
        func date(_ name: String) -> Date? { claims[name]?.numberValue.map(Date.init(timeIntervalSince1970:)) }
        audience = text("aud")
        service = text("svc")
        notValidBefore = date("nbf")
        expiration = date("exp")
        issueDate = date("iat")
        issuer = text("iss")
        tokenId = text("jti")
        partnerId = text("pid")
        partnerUserId = text("sub")
        nonce = text("nonce")
        super.init()
    }

    /// Archives what GrabID archives: `tokenId` and `partnerUserId` are left out (GrabID kept
    /// them in the Keychain).
    public func encode(with coder: NSCoder) {
        coder.encode(audience, forKey: "audience")
        coder.encode(service, forKey: "service")
        coder.encode(expiration, forKey: "expiration")
        coder.encode(notValidBefore, forKey: "notValidBefore")
        coder.encode(issueDate, forKey: "issueDate")
        coder.encode(issuer, forKey: "issuer")
        coder.encode(partnerId, forKey: "partnerId")
        coder.encode(nonce, forKey: "nonce")
    }

    /// Unarchives what ``encode(with:)`` archived.
    public required init?(coder: NSCoder) {
        audience = coder.decodeObject(forKey: "audience") as? String
        service = coder.decodeObject(forKey: "service") as? String
        notValidBefore = coder.decodeObject(forKey: "notValidBefore") as? Date
        expiration = coder.decodeObject(forKey: "expiration") as? Date
        issuer = coder.decodeObject(forKey: "issuer") as? String
        issueDate = coder.decodeObject(forKey: "issueDate") as? Date
        partnerId = coder.decodeObject(forKey: "partnerId") as? String
        nonce = coder.decodeObject(forKey: "nonce") as? String
        tokenId = nil
        partnerUserId = nil
        super.init()
    }
}
