import Foundation

/// The tokens of a signed-in session, as kept in memory and in a ``TokenStore``.
///
/// ``description`` never shows a token, nor does `dump` (``customMirror``); print the value freely.
public struct SessionTokens: Sendable, Equatable, Codable, CustomStringConvertible, CustomReflectable {
    /// The access token: a Bearer token, or a DPoP-bound one (``isSenderConstrained``).
    public let accessToken: String
    /// The refresh token, when the provider issued one.
    public let refreshToken: String?
    /// The raw ID token of the latest sign-in or refresh, when there is one.
    public let idToken: String?
    /// When the access token expires; nil when the provider did not say.
    public let expiresAt: Date?
    /// The seconds the access token was issued for (the token response's `expires_in`); nil when
    /// the provider did not say, or for sessions stored before it was kept. A refresh leeway is
    /// at most half of it (``expires(within:of:)``).
    public let lifetime: TimeInterval?
    /// The granted scopes (the token response's `scope`, or the requested ones).
    public let scopes: [String]
    /// The ID token's `sub`, when the session has an ID token.
    public let subject: String?
    /// The `token_type` as the provider spelled it (`Bearer`, `bearer`, ...); nil for sessions
    /// stored before it was kept.
    public let tokenType: String?
    /// String members of the latest token response beyond the standard ones, such as Google's
    /// `server_code`. They may be secrets: ``description`` does not show them.
    public let additionalParameters: [String: String]
    /// A request whose answer would replace or end these tokens, sent just after this copy was
    /// stored: set only in the copy a ``SessionClient`` saves before a refresh or a revocation
    /// goes out. A session restored with it lost that answer (the app died meanwhile), so its
    /// refresh token may already be retired or revoked, and it is not used again.
    public let inFlight: InFlight?
    /// When the copy carrying ``inFlight`` was stored, by the clock of the client that stored it:
    /// how long ago the request went out, for a provider that tolerates a refresh token's reuse for
    /// a while (``SessionConfiguration/refreshTokenReuseInterval``).
    package let inFlightSince: Date?
    /// The resource indicators (RFC 8707) ``accessToken`` was asked for, as sent; empty when the
    /// sign-in named none (the server then decides where it is accepted).
    public let resources: [String]
    /// Access tokens for further resources of the same authorization server, by resource
    /// indicator (``SessionClient/tokens(forResource:)``); each is refreshed on its own with the
    /// session's refresh token, and all end with the session.
    public let resourceTokens: [String: ResourceAccessToken]
    /// The private DPoP key the tokens are bound to (RFC 9449; PKCS #8, DER), kept with them in
    /// every store and deleted with them; nil for Bearer tokens and for a Secure Enclave key. A secret.
    package let dpopKey: Data?
    /// The reference to the Secure Enclave key the tokens are bound to, stored instead of
    /// ``dpopKey`` when the key was made there (Apple platforms); meaningful on that device only.
    package let dpopKeyReference: Data?

    /// What the store keeps of the DPoP key the tokens are bound to; nil for Bearer tokens.
    package var dpopKeyMaterial: DPoPKey.Material? {
        if let dpopKeyReference { return .secureEnclave(dpopKeyReference) }
        return dpopKey.map { .pkcs8($0) }
    }

    /// True when the tokens are bound to the session's DPoP key (RFC 9449): the provider refuses
    /// them without a proof made with that key, so a copy of them is useless elsewhere.
    public var isSenderConstrained: Bool { dpopKeyMaterial != nil }

    /// True when the session knows who signed in: it has an ID token, or kept its subject. False
    /// for a sign-in without `openid`, as at an OAuth 2.0 authorization server that is not an
    /// OpenID provider: the tokens then authorize requests but name no user, have no identity
    /// claims (``idTokenClaims`` is empty) and cannot be checked against UserInfo.
    public var hasIdentity: Bool { idToken != nil || subject != nil }

    /// The request a stored session was waiting on (see ``inFlight``).
    public enum InFlight: String, Sendable, Codable {
        /// A refresh, which retires the refresh token when the provider rotates it.
        case refresh
        /// A revocation at sign-out.
        case revocation
    }

    /// The claims of ``idToken``, decoded once when the token set is made or loaded; empty
    /// without an ID token. The core validated the token (signature, issuer, audience, times,
    /// nonce) when it received it; the claims are not checked again here.
    public let idTokenClaims: [String: JSONValue]

    /// Creates a token set.
    public init(accessToken: String, refreshToken: String?, idToken: String?, expiresAt: Date?, scopes: [String], subject: String?,
                tokenType: String? = "Bearer", additionalParameters: [String: String] = [:], lifetime: TimeInterval? = nil,
                resources: [String] = [], resourceTokens: [String: ResourceAccessToken] = [:]) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.expiresAt = expiresAt
        self.lifetime = lifetime
        self.scopes = scopes
        self.subject = subject
        self.tokenType = tokenType
        self.additionalParameters = additionalParameters
        self.resources = resources
        self.resourceTokens = resourceTokens
        inFlight = nil
        inFlightSince = nil
        dpopKey = nil
        dpopKeyReference = nil
        idTokenClaims = Self.claims(of: idToken)
    }

    /// A copy with some members changed; the ID token, and so its claims, stay.
    private init(_ tokens: SessionTokens, accessToken: String? = nil, refreshToken: String?? = nil, expiresAt: Date?? = nil,
                 inFlight: (InFlight?, Date?)? = nil, dpopKey: DPoPKey.Material?? = nil, resources: [String]? = nil,
                 resourceTokens: [String: ResourceAccessToken]? = nil) {
        self.accessToken = accessToken ?? tokens.accessToken
        self.refreshToken = refreshToken ?? tokens.refreshToken
        idToken = tokens.idToken
        self.expiresAt = expiresAt ?? tokens.expiresAt
        lifetime = tokens.lifetime
        scopes = tokens.scopes
        subject = tokens.subject
        tokenType = tokens.tokenType
        additionalParameters = tokens.additionalParameters
        self.resources = resources ?? tokens.resources
        self.resourceTokens = resourceTokens ?? tokens.resourceTokens
        (self.inFlight, inFlightSince) = inFlight ?? (tokens.inFlight, tokens.inFlightSince)
        switch dpopKey ?? tokens.dpopKeyMaterial {
        case .pkcs8(let der)?: (self.dpopKey, dpopKeyReference) = (der, nil)
        case .secureEnclave(let reference)?: (self.dpopKey, dpopKeyReference) = (nil, reference)
        case nil: (self.dpopKey, dpopKeyReference) = (nil, nil)
        }
        idTokenClaims = tokens.idTokenClaims
    }

    /// The same tokens bound to the DPoP key `material` names (nil: Bearer tokens).
    package func bound(to material: DPoPKey.Material?) -> SessionTokens {
        SessionTokens(self, dpopKey: .some(material))
    }

    /// The same tokens, their access token asked for `resources` (RFC 8707).
    package func issued(for resources: [String]) -> SessionTokens {
        SessionTokens(self, resources: resources)
    }

    /// The same tokens with `token` kept for its resource, after the refresh that gave it: with
    /// the refresh token that refresh left (a rotated one, or the same).
    package func keeping(_ token: ResourceAccessToken, refreshToken: String?) -> SessionTokens {
        var kept = resourceTokens
        kept[token.resource] = token
        return SessionTokens(self, refreshToken: .some(refreshToken), resourceTokens: kept)
    }

    /// The copy to store before `request` goes out, or, with nil, the copy without the mark.
    public func marked(_ request: InFlight?) -> SessionTokens {
        SessionTokens(self, inFlight: (request, nil))
    }

    /// The copy to store before `request` goes out at `date`.
    package func marked(_ request: InFlight, at date: Date) -> SessionTokens {
        SessionTokens(self, inFlight: (request, date))
    }

    /// The claims of `idToken`; empty without one or when it cannot be decoded (a stored token
    /// set is never refused for that: the token was validated when it arrived).
    package static func claims(of idToken: String?) -> [String: JSONValue] {
        idToken.flatMap { try? IDToken($0).claims } ?? [:]
    }

    /// When the ID token expires (its `exp` claim); nil without an ID token.
    public var idTokenExpiresAt: Date? { idTokenClaims["exp"]?.numberValue.map(Date.init(timeIntervalSince1970:)) }

    private enum CodingKeys: String, CodingKey {
        case accessToken, refreshToken, idToken, expiresAt, scopes, subject, tokenType, additionalParameters, inFlight, inFlightSince, lifetime
        case dpopKey, dpopKeyReference, resources, resourceTokens
    }

    /// Decodes a token set; members added in later versions may be missing from a stored one.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
        idToken = try container.decodeIfPresent(String.self, forKey: .idToken)
        expiresAt = try container.decodeIfPresent(Date.self, forKey: .expiresAt)
        lifetime = try container.decodeIfPresent(TimeInterval.self, forKey: .lifetime)
        scopes = try container.decode([String].self, forKey: .scopes)
        subject = try container.decodeIfPresent(String.self, forKey: .subject)
        tokenType = try container.decodeIfPresent(String.self, forKey: .tokenType)
        additionalParameters = try container.decodeIfPresent([String: String].self, forKey: .additionalParameters) ?? [:]
        resources = try container.decodeIfPresent([String].self, forKey: .resources) ?? []
        resourceTokens = try container.decodeIfPresent([String: ResourceAccessToken].self, forKey: .resourceTokens) ?? [:]
        // A token kept under another resource's name would be sent to that resource.
        guard resourceTokens.allSatisfy({ Exact.equal($0.key, $0.value.resource) }) else {
            throw DecodingError.dataCorruptedError(forKey: .resourceTokens, in: container,
                                                   debugDescription: "a resource token is kept under another resource's name")
        }
        inFlight = try container.decodeIfPresent(InFlight.self, forKey: .inFlight)
        inFlightSince = try container.decodeIfPresent(Date.self, forKey: .inFlightSince)
        // A refresh mark holds the time a process wrote it: one outside any clock's is a damaged or
        // forged file, not a number to reckon with. (Expiries may lie past any calendar: some
        // providers say "never" so.)
        guard inFlightSince.map(Self.isPossibleMarkTime) ?? true else {
            throw DecodingError.dataCorruptedError(forKey: .inFlightSince, in: container,
                                                   debugDescription: "the refresh mark's time lies outside the years 1970 to 9999")
        }
        dpopKey = try container.decodeIfPresent(Data.self, forKey: .dpopKey)
        dpopKeyReference = try container.decodeIfPresent(Data.self, forKey: .dpopKeyReference)
        idTokenClaims = Self.claims(of: idToken)
    }

    /// True for a time within 1970-01-01 and 9999-12-31, where any clock's time lies.
    static func isPossibleMarkTime(_ time: Date) -> Bool {
        (0...253_402_300_799).contains(time.timeIntervalSince1970)
    }

    /// Encodes the token set; the claims are not stored, they are decoded from the ID token again.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(accessToken, forKey: .accessToken)
        try container.encodeIfPresent(refreshToken, forKey: .refreshToken)
        try container.encodeIfPresent(idToken, forKey: .idToken)
        try container.encodeIfPresent(expiresAt, forKey: .expiresAt)
        try container.encodeIfPresent(lifetime, forKey: .lifetime)
        try container.encode(scopes, forKey: .scopes)
        try container.encodeIfPresent(subject, forKey: .subject)
        try container.encodeIfPresent(tokenType, forKey: .tokenType)
        try container.encode(additionalParameters, forKey: .additionalParameters)
        if !resources.isEmpty { try container.encode(resources, forKey: .resources) }
        if !resourceTokens.isEmpty { try container.encode(resourceTokens, forKey: .resourceTokens) }
        try container.encodeIfPresent(inFlight, forKey: .inFlight)
        try container.encodeIfPresent(inFlightSince, forKey: .inFlightSince)
        try container.encodeIfPresent(dpopKey, forKey: .dpopKey)
        try container.encodeIfPresent(dpopKeyReference, forKey: .dpopKeyReference)
    }

    /// True when the access token has expired or expires within `leeway` seconds of `now`, the
    /// leeway taken as at most half the token's ``lifetime``: a 30-second token is not refreshed
    /// at every use because the configured leeway is a minute.
    public func expires(within leeway: TimeInterval, of now: Date) -> Bool {
        expiresAt.map { Self.expiry($0, isWithin: effectiveLeeway(leeway), of: now) } ?? false
    }

    /// `leeway`, at most half the token's lifetime when the provider gave one.
    public func effectiveLeeway(_ leeway: TimeInterval) -> TimeInterval {
        Self.effectiveLeeway(leeway, lifetime: lifetime)
    }

    /// The one leeway rule: `leeway`, at most half of `lifetime` when there is one.
    static func effectiveLeeway(_ leeway: TimeInterval, lifetime: TimeInterval?) -> TimeInterval {
        guard let lifetime, lifetime > 0 else { return leeway }
        return min(leeway, lifetime / 2)
    }

    /// The one expiry rule: `expiresAt` is `leeway` seconds or less after `now` (or before it).
    static func expiry(_ expiresAt: Date, isWithin leeway: TimeInterval, of now: Date) -> Bool {
        expiresAt.timeIntervalSince(now) <= leeway
    }

    /// The same tokens with another access-token expiry (for tests and tools that simulate expiry).
    public func withExpiry(_ date: Date?) -> SessionTokens {
        SessionTokens(self, expiresAt: .some(date))
    }

    /// The same tokens with another access token (for compat layers whose apps set one).
    public func withAccessToken(_ token: String) -> SessionTokens {
        SessionTokens(self, accessToken: token)
    }

    /// Two token sets are equal when they hold the same tokens, claims, key and mark; when the
    /// mark was made is bookkeeping, not part of what they are.
    public static func == (a: SessionTokens, b: SessionTokens) -> Bool {
        a.accessToken == b.accessToken && a.refreshToken == b.refreshToken && a.idToken == b.idToken && a.expiresAt == b.expiresAt
            && a.lifetime == b.lifetime && a.scopes == b.scopes && a.subject == b.subject && a.tokenType == b.tokenType
            && a.additionalParameters == b.additionalParameters && a.resources == b.resources && a.resourceTokens == b.resourceTokens
            && a.inFlight == b.inFlight && a.dpopKey == b.dpopKey
            && a.dpopKeyReference == b.dpopKeyReference && a.idTokenClaims == b.idTokenClaims
    }

    /// Which tokens are present and when the access token expires; never a token value.
    public var description: String {
        let expiry = expiresAt.map { "expires \(ISO8601DateFormatter().string(from: $0))" } ?? "no expiry"
        return "SessionTokens(access: <redacted>, refresh: \(refreshToken == nil ? "none" : "<redacted>"), "
            + "id: \(idToken == nil ? "none" : "<redacted>"), \(expiry), scopes: \(scopes.joined(separator: " ")), "
            + "subject: \(subject == nil ? "none" : "present")\(isSenderConstrained ? ", DPoP-bound" : "")"
            + (resources.isEmpty ? "" : ", resources: \(resources.joined(separator: " "))")
            + (resourceTokens.isEmpty ? "" : ", tokens for \(resourceTokens.keys.sorted().joined(separator: " "))") + ")"
    }

    /// What `dump` shows: the ``description``, never a token or the key.
    public var customMirror: Mirror { Mirror(self, children: ["tokens": description], displayStyle: .struct) }
}
