import Foundation
import SessionCore

extension SessionError.Code {
    /// A back-channel logout token broke a rule of OpenID Connect Back-Channel Logout 1.0 §2.6:
    /// nothing was ended.
    public static let invalidLogoutToken = SessionError.Code(rawValue: "invalidLogoutToken")
}

/// A logout token (OpenID Connect Back-Channel Logout 1.0 §2.4) that passed every check of §2.6:
/// which provider session, or which user, the provider ended.
public struct LogoutToken: Sendable {
    /// The user whose sessions end (`sub`); with ``providerSessionID`` too, only that session of theirs.
    public let subject: String?
    /// The provider's session that ended (`sid`).
    public let providerSessionID: String?
    /// The token's `jti`, remembered so it is taken once.
    let id: String
    /// Until when the token could be presented again (its `iat` plus the accepted age).
    let replayableUntil: Date

    /// The event a logout token declares itself with.
    static let event = "http://schemas.openid.net/event/backchannel-logout"

    /// Checks `raw` as a logout token of `provider` for its client: signed with one of the
    /// provider's keys, `typ` `logout+jwt` when a `typ` is given, `iss` the issuer, `aud` the client,
    /// `iat` neither in the future nor older than `maxAge` (an `exp`, when given, not past), a
    /// `jti`, the `events` member exactly the back-channel logout event with an object value,
    /// `sub` or `sid`, and no `nonce`.
    /// - Throws: `invalidLogoutToken` saying which rule failed; discovery and key-set errors.
    static func validate(_ raw: String, at provider: OpenIDProvider, maxAge: TimeInterval) async throws -> LogoutToken {
        let header: [String: JSONValue], claims: [String: JSONValue]
        do {
            (header, claims) = try await provider.verifiedJWT(raw, kind: "logout token")
        } catch let error as SessionError where error.code.rawValue.hasPrefix("idToken") {
            throw invalid(error.message.replacingOccurrences(of: "logout token: ", with: ""))
        }
        if let type = header["typ"] {
            guard let name = type.stringValue?.lowercased(), name == "logout+jwt" || name == "application/logout+jwt" else {
                throw invalid("its 'typ' is not logout+jwt")
            }
        }
        let configuration = provider.configuration
        let issuer = try await provider.discover().issuer
        guard Exact.equal(claims["iss"]?.stringValue, issuer) else { throw invalid("'iss' is not the provider's") }
        let audiences: [String] = switch claims["aud"] {
        case .string(let one)?: [one]
        case .array(let many)?: many.compactMap(\.stringValue)
        default: []
        }
        guard Exact.contains(audiences, configuration.clientID) else { throw invalid("'aud' does not name this client") }
        let now = provider.clock.now().timeIntervalSince1970
        let skew = configuration.allowedClockSkew
        guard let issuedAt = claims["iat"]?.numberValue else { throw invalid("'iat' is missing") }
        guard issuedAt <= now + skew else { throw invalid("'iat' is in the future") }
        guard issuedAt >= now - maxAge - skew else { throw invalid("'iat' is older than \(Int(maxAge)) s") }
        if let expiry = claims["exp"] {
            guard let exp = expiry.numberValue, now < exp + skew else { throw invalid("it has expired") }
        }
        guard let id = claims["jti"]?.stringValue, !id.isEmpty else { throw invalid("'jti' is missing") }
        guard case .object(let events)? = claims["events"], case .object? = events[event] else {
            throw invalid("'events' does not hold the back-channel logout event as an object")
        }
        guard claims["nonce"] == nil else { throw invalid("it carries a 'nonce', as no logout token may") }
        let subject = try optionalString("sub", in: claims)
        let providerSessionID = try optionalString("sid", in: claims)
        guard subject != nil || providerSessionID != nil else { throw invalid("it names neither 'sub' nor 'sid'") }
        return LogoutToken(subject: subject, providerSessionID: providerSessionID, id: id,
                           replayableUntil: Date(timeIntervalSince1970: issuedAt + maxAge + 2 * skew))
    }

    private static func optionalString(_ name: String, in claims: [String: JSONValue]) throws -> String? {
        guard let value = claims[name] else { return nil }
        guard let text = value.stringValue, !text.isEmpty else { throw invalid("'\(name)' is not a string") }
        return text
    }

    private static func invalid(_ why: String) -> SessionError {
        SessionError(.invalidLogoutToken, process: .endSession, message: "logout token: \(why); nothing was ended")
    }
}
