import Foundation

/// A successful token endpoint response (RFC 6749 §5.1), validated: `access_token` present,
/// `token_type` Bearer (RFC 6750) or DPoP (RFC 9449; whether the client asked for it is the
/// caller's to check), `expires_in` a positive number when present.
struct TokenResponse: Sendable {
    let accessToken: String
    /// `token_type` as the provider spelled it (compared without case).
    let tokenType: String
    let refreshToken: String?
    let idToken: String?
    let expiresIn: TimeInterval?
    let scope: [String]?
    /// String members outside RFC 6749 §5.1 and OIDC, such as Google's `server_code`.
    let additionalParameters: [String: String]

    private static let standardMembers: Set<String> = ["access_token", "token_type", "expires_in", "refresh_token", "scope", "id_token"]

    init(response: HTTPResponse, purpose: String) throws {
        guard response.status == 200 else {
            throw ProviderExchange.statusError(response, process: .authentication, purpose: purpose)
        }
        let fields = try JSONFields(data: response.body) { why in
            SessionError(.invalidResponse, process: .authentication, message: "\(purpose): \(why)")
        }
        accessToken = try fields.requiredString("access_token")
        tokenType = try fields.requiredString("token_type")
        guard ASCII.equalIgnoringCase(tokenType, "Bearer") || ASCII.equalIgnoringCase(tokenType, "DPoP") else {
            throw fields.fail("'token_type' is neither Bearer nor DPoP")
        }
        // Some providers send expires_in as a numeric string.
        let expiresIn: Double?
        if let text = try? fields.string("expires_in") {
            expiresIn = Double(text)
            guard expiresIn != nil else { throw fields.fail("'expires_in' is not a number") }
        } else {
            expiresIn = try fields.number("expires_in")
        }
        if let expiresIn, !(expiresIn > 0 && expiresIn.isFinite) { throw fields.fail("'expires_in' is not a positive number") }
        self.expiresIn = expiresIn
        refreshToken = try fields.string("refresh_token").flatMap { $0.isEmpty ? nil : $0 }
        idToken = try fields.string("id_token").flatMap { $0.isEmpty ? nil : $0 }
        scope = try fields.string("scope").map { $0.split(separator: " ").map(String.init) }
        additionalParameters = fields.members.filter { !Self.standardMembers.contains($0.key) }.compactMapValues(\.stringValue)
    }

    /// True for `token_type` DPoP: the tokens are bound to the proof's key.
    var isDPoPBound: Bool { ASCII.equalIgnoringCase(tokenType, "DPoP") }

    /// The session tokens this response gives, received at `now`. After a refresh, `previous`
    /// supplies what the provider may leave out: the refresh token (not rotated), the ID token,
    /// the scopes and the subject.
    func sessionTokens(receivedAt now: Date, requestedScopes: [String], subject: String?, previous: SessionTokens? = nil) -> SessionTokens {
        SessionTokens(
            accessToken: accessToken,
            refreshToken: refreshToken ?? previous?.refreshToken,
            idToken: idToken ?? previous?.idToken,
            expiresAt: expiresIn.map { now.addingTimeInterval($0) },
            scopes: scope ?? previous?.scopes ?? requestedScopes,
            subject: subject ?? previous?.subject,
            tokenType: tokenType,
            additionalParameters: additionalParameters,
            lifetime: expiresIn,
            resources: previous?.resources ?? [],
            resourceTokens: previous?.resourceTokens ?? [:]
        )
    }

    /// The token this response gives for `resource`, received at `now`; the scopes of `previous`
    /// when it names none.
    func resourceToken(for resource: String, receivedAt now: Date, previous: SessionTokens) -> ResourceAccessToken {
        ResourceAccessToken(resource: resource, accessToken: accessToken, tokenType: tokenType,
                            expiresAt: expiresIn.map { now.addingTimeInterval($0) }, lifetime: expiresIn, scopes: scope ?? previous.scopes)
    }
}
