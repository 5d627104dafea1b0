import Foundation
import SessionCore

/// What one authorization granted: to which client, for whom, which scopes. Every token issued
/// from it belongs to its refresh-token family.
struct Grant: Sendable, Codable, Equatable {
    let family: Int
    let clientID: String
    let subject: String
    let scopes: Set<String>
    /// The thumbprint of the DPoP key the grant's tokens are bound to (their `cnf.jkt`, RFC 9449
    /// §6); nil for Bearer tokens.
    var jkt: String?
    /// When the user approved the grant: every ID token of it carries this `auth_time`, the
    /// refreshed ones too (OIDC Core §12.2: the original authentication's time).
    var authenticatedAt: Date
    /// The provider's session the grant was made in: its ID tokens' `sid`, and what a back-channel
    /// logout names. (Optional: state files written before it have none.)
    var sessionID: String?
    /// The resources (RFC 8707) the authorization named; nil or empty when it named none.
    var resources: Set<String>?
}

/// An authorization code: single-use and bound to client, redirect URI and PKCE challenge.
/// A pushed authorization request: its parameters, the client that pushed them, and when its
/// `request_uri` expires.
struct PushedRequest: Sendable {
    let parameters: [(name: String, value: String)]
    let clientID: String
    let expiresAt: Date
}

struct IssuedCode: Sendable {
    let grant: Grant
    let redirectURI: String
    let challenge: String
    let nonce: String?
    let expiresAt: Date
    var used = false
}

/// A device sign-in (RFC 8628): its codes, what the user decided, and how it is being polled.
struct DeviceSignIn: Sendable {
    enum Decision: Sendable, Equatable { case pending, approved(subject: String), denied }
    let clientID: String
    let userCode: String
    let scopes: Set<String>
    /// The resources (RFC 8707) the device authorization request named; empty when it named none.
    let resources: Set<String>
    let expiresAt: Date
    var interval: TimeInterval
    var lastPoll: Date?
    var polls = 0
    var decision = Decision.pending
    /// When the user approved or denied it: the `auth_time` of its ID tokens.
    var decidedAt: Date?
    var used = false
}

/// An access token and when it stops working.
struct IssuedAccessToken: Sendable, Codable, Equatable {
    let grant: Grant
    let expiresAt: Date
    /// The resources the token was issued for (its audience, RFC 8707); nil or empty for none.
    var audience: Set<String>?
}

/// A refresh token; `retired` once rotated away. Presenting a retired token revokes its family
/// (unless within the reuse interval after `retiredAt`).
struct IssuedRefreshToken: Sendable, Codable, Equatable {
    let grant: Grant
    var retired = false
    /// When it was rotated away.
    var retiredAt: Date?
    /// The access token issued with it, which a refresh with it revokes when the provider does.
    var accessToken: String?
}

/// Everything the provider remembers. Only ``LocalProviderEngine`` touches it, under its lock.
struct LocalProviderState: Sendable {
    var keys: LocalProviderKeyRing
    var codes: [String: IssuedCode] = [:]
    /// Pushed authorization requests (RFC 9126) by `request_uri`, until used once or expired.
    var pushedRequests: [String: PushedRequest] = [:]
    var accessTokens: [String: IssuedAccessToken] = [:]
    var refreshTokens: [String: IssuedRefreshToken] = [:]
    /// Permission-center tokens, issued in the ID token's `permission_management` claim.
    var permissionTokens: [String: IssuedAccessToken] = [:]
    /// Families whose tokens all stopped working (reuse detected, revoked, or code replayed).
    var revokedFamilies: Set<Int> = []
    var nextFamily = 1
    var permissions: [String: LocalProvider.PermissionRecord] = [:]
    var scriptedConsent: [LocalProvider.ConsentDecision] = []
    var defaultConsent: LocalProvider.ConsentDecision = .approve
    var faults: [LocalProvider.Endpoint: [InjectedFault]] = [:]
    var log: [LocalProvider.LoggedRequest] = []
    /// Run once an endpoint's answer has been sent (the connection is then closed).
    var answerObservers: [LocalProvider.Endpoint: @Sendable () -> Void] = [:]
    var arrivalObservers: [LocalProvider.Endpoint: @Sendable () -> Void] = [:]
    /// How many sessions RP-initiated logouts ended.
    var endedSessions = 0
    /// The back-channel logouts sent, in order: where, and the status answered (nil: no answer).
    var backChannelLogouts: [(uri: URL, status: Int?)] = []
    /// Back-channel logout URIs registered after the provider started, by client ID.
    var backChannelLogoutURIs: [String: URL] = [:]
    /// Device sign-ins by device code.
    var deviceSignIns: [String: DeviceSignIn] = [:]
    /// The `jti` of each client assertion accepted, until it expires: a second use is a replay.
    var clientAssertionIDs: [String: Date] = [:]
    /// Rotated refresh tokens presented again (each revoked its grant).
    var refreshTokenReuses = 0
    /// The refreshes honoured, by subject and time, the newest ``LocalProvider/Options/requestLogLimit``.
    var refreshes: [(subject: String, at: Date)] = []
    /// The nonce DPoP proofs must carry when ``LocalProvider/Options/requiresDPoPNonce`` is set.
    var dpopNonce = LocalProviderEngine.randomValue("dn")
    /// Codes and tokens issued since the last ``prune(at:)``, and how many were kept by it.
    private var issuedSincePrune = 0
    private var keptAtLastPrune = 0

    init(keys: LocalProviderKeyRing) {
        self.keys = keys
    }

    /// The next consent decision: a scripted one if any is left, else the default.
    mutating func nextConsent() -> LocalProvider.ConsentDecision {
        scriptedConsent.isEmpty ? defaultConsent : scriptedConsent.removeFirst()
    }

    /// Appends `request` to the log, keeping the newest `limit` entries. Older ones are dropped in
    /// batches, so appending stays cheap.
    mutating func record(_ request: LocalProvider.LoggedRequest, limit: Int) {
        log.append(request)
        if log.count >= 2 * max(limit, 1) { log.removeFirst(log.count - limit) }
    }

    /// The newest `limit` log entries.
    func loggedRequests(limit: Int) -> [LocalProvider.LoggedRequest] {
        Array(log.suffix(limit))
    }

    /// Counts one issued code or token, and sweeps out the unusable ones once as many were issued
    /// as the last sweep kept (at least 64): the provider stays bounded at a constant cost per issue.
    mutating func noteIssued(at now: Date) {
        issuedSincePrune += 1
        if issuedSincePrune >= max(64, keptAtLastPrune) { prune(at: now) }
    }

    /// Forgets what no request can use any more: expired codes (a replay of one is refused
    /// either way), expired access and permission tokens, and every token of a revoked family.
    /// Retired refresh tokens of live families stay, for reuse detection.
    mutating func prune(at now: Date) {
        let revoked = revokedFamilies
        codes = codes.filter { $0.value.expiresAt > now && !revoked.contains($0.value.grant.family) }
        accessTokens = accessTokens.filter { $0.value.expiresAt > now && !revoked.contains($0.value.grant.family) }
        permissionTokens = permissionTokens.filter { $0.value.expiresAt > now && !revoked.contains($0.value.grant.family) }
        refreshTokens = refreshTokens.filter { !revoked.contains($0.value.grant.family) }
        clientAssertionIDs = clientAssertionIDs.filter { $0.value > now }
        deviceSignIns = deviceSignIns.filter { $0.value.expiresAt > now && !$0.value.used }
        issuedSincePrune = 0
        keptAtLastPrune = codes.count + accessTokens.count + permissionTokens.count + refreshTokens.count
    }

    /// How many codes and tokens are remembered.
    var retainedCredentials: Int { codes.count + accessTokens.count + permissionTokens.count + refreshTokens.count }

    /// The next fault for `endpoint`, counting it down.
    mutating func nextFault(for endpoint: LocalProvider.Endpoint) -> LocalProvider.Fault? {
        guard var queue = faults[endpoint], !queue.isEmpty else { return nil }
        let fault = queue[0].fault
        if let remaining = queue[0].remaining {
            if remaining <= 1 { queue.removeFirst() } else { queue[0].remaining = remaining - 1 }
        }
        faults[endpoint] = queue
        return fault
    }

    mutating func newGrant(clientID: String, subject: String, scopes: Set<String>, jkt: String? = nil, authenticatedAt: Date) -> Grant {
        defer { nextFamily += 1 }
        return Grant(family: nextFamily, clientID: clientID, subject: subject, scopes: scopes, jkt: jkt, authenticatedAt: authenticatedAt,
                     sessionID: LocalProviderEngine.randomValue("sid"))
    }

    /// The grant of a live access token.
    func accessGrant(for token: String, at now: Date) -> Grant? {
        guard let issued = accessTokens[token], issued.expiresAt > now, !revokedFamilies.contains(issued.grant.family) else { return nil }
        return issued.grant
    }

    /// The grant a permission-center request may act for, netID's way: a live permission token,
    /// or the access token of a grant that has `permission_management` but no ID token (no
    /// `openid`). The access token of a grant with an ID token is refused, as netID refuses it.
    func permissionGrant(for token: String, at now: Date) -> Grant? {
        let issued = permissionTokens[token] ?? accessTokens[token].flatMap { $0.grant.scopes.contains("openid") ? nil : $0 }
        guard let issued, issued.expiresAt > now, !revokedFamilies.contains(issued.grant.family),
              issued.grant.scopes.contains("permission_management") else { return nil }
        return issued.grant
    }

    /// What survives a restart when ``LocalProvider/Options/stateFile`` is set.
    struct Persisted: Codable, Equatable {
        var port: UInt16
        var accessTokens: [String: IssuedAccessToken]
        var refreshTokens: [String: IssuedRefreshToken]
        /// Optional: state files written before permission tokens existed lack it.
        var permissionTokens: [String: IssuedAccessToken]?
        var revokedFamilies: Set<Int>
        var nextFamily: Int
        var permissions: [String: LocalProvider.PermissionRecord]
    }

    func persisted(port: UInt16) -> Persisted {
        Persisted(port: port, accessTokens: accessTokens, refreshTokens: refreshTokens, permissionTokens: permissionTokens,
                  revokedFamilies: revokedFamilies, nextFamily: nextFamily, permissions: permissions)
    }

    mutating func adopt(_ persisted: Persisted) {
        accessTokens = persisted.accessTokens
        refreshTokens = persisted.refreshTokens
        permissionTokens = persisted.permissionTokens ?? [:]
        revokedFamilies = persisted.revokedFamilies
        nextFamily = persisted.nextFamily
        permissions = persisted.permissions
    }

    func isActive(refreshToken: String) -> Bool {
        guard let issued = refreshTokens[refreshToken] else { return false }
        return !issued.retired && !revokedFamilies.contains(issued.grant.family)
    }
}
