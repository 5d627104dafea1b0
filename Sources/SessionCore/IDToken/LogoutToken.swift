import Foundation

/// A logout token (OpenID Connect Back-Channel Logout 1.0 §2.4) that passed every check of §2.6:
/// which provider session, or which user, the provider ended.
public struct LogoutToken: Sendable {
    /// The user whose sessions end (`sub`); with ``providerSessionID`` too, only that session of theirs.
    public let subject: String?
    /// The provider's session that ended (`sid`).
    public let providerSessionID: String?
    /// The token's `jti`: a receiver remembers it until ``acceptableUntil`` and takes the token once.
    public let tokenID: String
    /// Until when the same token would still be accepted (its `iat` plus the age accepted, and the
    /// clock skew on both sides).
    public let acceptableUntil: Date

    /// The member a logout token's `events` claim must hold.
    static let event = "http://schemas.openid.net/event/backchannel-logout"

    /// The longest age a receiver may accept: a day. Its `jti` memory lasts as long, and the
    /// specification asks for tokens that live minutes.
    package static let longestMaxAge: TimeInterval = 86_400

    /// Throws `invalidConfiguration` of `process` unless `maxAge` is a number of seconds above 0
    /// and at most ``longestMaxAge``: a bound no token meets would refuse every logout.
    package static func checkMaxAge(_ maxAge: TimeInterval, process: SessionError.Process) throws {
        guard maxAge > 0, maxAge <= longestMaxAge else {
            throw SessionError(.invalidConfiguration, process: process,
                               message: "a logout token's maximum age must be more than 0 and at most \(wholeSeconds(longestMaxAge)) seconds")
        }
    }
}

extension OpenIDProvider {
    /// Checks `raw` as a logout token of this provider for the configured client: signed with one
    /// of the provider's ID-token keys, `typ` `logout+jwt` when a `typ` is given, `iss` the
    /// issuer, `aud` the client, `iat` neither in the future nor older than `maxAge` (an `exp`,
    /// when given, not past; both with the configuration's clock skew), a `jti`, the `events` member
    /// holding the back-channel logout event with an object value, `sub` or `sid`, and no `nonce`.
    /// Remembering the `jti` (``LogoutToken/tokenID``) so the token is taken once is the caller's.
    /// - Throws: `invalidLogoutToken` (process `endSession`) saying which rule failed; discovery and
    ///   key-set errors; `invalidConfiguration` when `maxAge` is not above 0 and at most a day.
    public func validateLogoutToken(_ raw: String, maxAge: TimeInterval = 300) async throws -> LogoutToken {
        try LogoutToken.checkMaxAge(maxAge, process: .endSession)
        func invalid(_ why: String) -> SessionError {
            SessionError(.invalidLogoutToken, process: .endSession, message: "logout token: \(why); nothing was ended")
        }
        let header: [String: JSONValue], claims: [String: JSONValue]
        do {
            (header, claims) = try await verifiedJWT(raw, kind: "logout token")
        } catch let error as SessionError where error.code.rawValue.hasPrefix("idToken") {
            throw invalid(error.message.replacingOccurrences(of: "logout token: ", with: ""))
        }
        if let type = header["typ"] {
            guard let name = type.stringValue, ASCII.equalIgnoringCase(name, "logout+jwt") || ASCII.equalIgnoringCase(name, "application/logout+jwt") else {
                throw invalid("its 'typ' is not logout+jwt")
            }
        }
        guard Exact.equal(claims["iss"]?.stringValue, try await discover().issuer) else { throw invalid("'iss' is not the provider's") }
        let audiences: [String] = switch claims["aud"] {
        case .string(let one)?: [one]
        case .array(let many)?: many.compactMap(\.stringValue)
        default: []
        }
        guard Exact.contains(audiences, configuration.clientID) else { throw invalid("'aud' does not name this client") }
        let now = clock.now().timeIntervalSince1970
        let skew = configuration.allowedClockSkew
        guard let issuedAt = claims["iat"]?.numberValue else { throw invalid("'iat' is missing") }
        guard issuedAt <= now + skew else { throw invalid("'iat' is in the future") }
        guard issuedAt >= now - maxAge - skew else { throw invalid("'iat' is older than \(wholeSeconds(maxAge)) s") }
        if let expiry = claims["exp"] {
            guard let exp = expiry.numberValue, now < exp + skew else { throw invalid("it has expired") }
        }
        guard let tokenID = claims["jti"]?.stringValue, !tokenID.isEmpty else { throw invalid("'jti' is missing") }
        guard case .object(let events)? = claims["events"], case .object? = events[LogoutToken.event] else {
            throw invalid("'events' does not hold the back-channel logout event as an object")
        }
        guard claims["nonce"] == nil else { throw invalid("it carries a 'nonce', as no logout token may") }
        func optionalString(_ name: String) throws -> String? {
            guard let value = claims[name] else { return nil }
            guard let text = value.stringValue, !text.isEmpty else { throw invalid("'\(name)' is not a string") }
            return text
        }
        let subject = try optionalString("sub"), providerSessionID = try optionalString("sid")
        guard subject != nil || providerSessionID != nil else { throw invalid("it names neither 'sub' nor 'sid'") }
        return LogoutToken(subject: subject, providerSessionID: providerSessionID, tokenID: tokenID,
                           acceptableUntil: Date(timeIntervalSince1970: issuedAt + maxAge + 2 * skew))
    }
}
