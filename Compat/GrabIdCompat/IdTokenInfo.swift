import Foundation
import SessionCore

/// What a GrabID ID token says, read from a token SessionService validated at sign-in.
public final class IdTokenInfo: Sendable {
    /// `aud`.
    public let audience: String?
    /// `svc`.
    public let service: String?
    /// `iss`.
    public let issuer: String?
    /// `jti`.
    public let tokenId: String?
    /// `pid`.
    public let partnerId: String?
    /// `sub`.
    public let partnerUserId: String?
    /// `nonce`.
    public let nonce: String?
    /// `nbf`.
    public let notValidBefore: Date?
    /// `exp`.
    public let expiration: Date?
    /// `iat`.
    public let issueDate: Date?

    init(_ token: IDToken) {
        let claims = token.claims
        func text(_ name: String) -> String? {
            if let value = claims[name]?.stringValue { return value }
            return claims[name]?.arrayValue?.first?.stringValue
        }
        func date(_ name: String) -> Date? { claims[name]?.numberValue.map(Date.init(timeIntervalSince1970:)) }
        audience = text("aud")
        service = text("svc")
        issuer = text("iss")
        tokenId = text("jti")
        partnerId = text("pid")
        partnerUserId = text("sub")
        nonce = text("nonce")
        notValidBefore = date("nbf")
        expiration = date("exp")
        issueDate = date("iat")
    }
}
