import Foundation
import LoopbackHTTP
import SessionCore

/// The Device Authorization Grant (RFC 8628), as strictly as a real provider: codes expire, a
/// device code works once, polling faster than the interval is `slow_down` (which lengthens it).
extension LocalProviderEngine {
    /// `POST /device_authorization` (RFC 8628 §3.1–3.2).
    func startDeviceSignIn(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let (form, clientID): ([String: String], String)
        switch authenticatedForm(request, endpoint: "device authorization endpoint") {
        case .passed(let passed): (form, clientID) = passed
        case .refused(let refusal): return refusal
        }
        // `scope` is optional (RFC 8628 §3.1): without it, the client's default is sign-in only.
        let scopes = form["scope"].map { Set($0.split(separator: " ").map(String.init)) } ?? ["openid"]
        guard isGrantable(scopes) else { return Self.oauthError("invalid_scope", "the scope is empty or unknown") }
        // RFC 8707 §2: the resources named here bound what the tokens of this sign-in may be for.
        let resources = Self.resources(request.formItems)
        guard resources.isSubset(of: knownResources) else {
            return Self.oauthError("invalid_target", "the resource is not one this server issues tokens for")
        }
        let now = options.clock.now()
        let deviceCode = Self.randomValue("dc")
        let userCode = Self.userCode()
        let signIn = DeviceSignIn(clientID: clientID, userCode: userCode, scopes: scopes, resources: resources,
                                  expiresAt: now.addingTimeInterval(options.deviceCodeLifetime), interval: options.devicePollingInterval)
        withState { state in
            state.deviceSignIns[deviceCode] = signIn
            state.noteIssued(at: now)
        }
        let verification = issuer + "/device"
        return Self.json([
            "device_code": deviceCode, "user_code": userCode, "verification_uri": verification,
            "verification_uri_complete": verification + "?user_code=" + userCode,
            "expires_in": Int(options.deviceCodeLifetime), "interval": Int(options.devicePollingInterval),
        ])
    }

    /// A token request with a device code (RFC 8628 §3.4–3.5); `resources` are those it names
    /// (RFC 8707), each among those the device authorization request named, when it named any.
    func pollDeviceSignIn(_ form: [String: String], clientID: String, jkt: String?, resources: Set<String>) -> HTTPServerResponse {
        guard let deviceCode = form["device_code"] else { return Self.oauthError("invalid_request", "device_code is missing") }
        let now = options.clock.now()
        let known = knownResources
        let firstUser = options.users.first?.subject
        let outcome = withState { state -> Checked<(Grant, Tokens)> in
            guard var signIn = state.deviceSignIns[deviceCode], Exact.equal(signIn.clientID, clientID), !signIn.used else {
                return .refused(Self.oauthError("invalid_grant", "the device code is unknown, used, or another client's"))
            }
            defer { state.deviceSignIns[deviceCode] = signIn }
            guard now < signIn.expiresAt else { return .refused(Self.oauthError("expired_token", "the device code has expired")) }
            if let last = signIn.lastPoll, now.timeIntervalSince(last) < signIn.interval {
                signIn.interval += 5
                signIn.lastPoll = now
                return .refused(Self.oauthError("slow_down", "polled faster than the interval"))
            }
            signIn.lastPoll = now
            signIn.polls += 1
            if signIn.decision == .pending, let after = options.approvesDeviceSignInsAfterPolls, signIn.polls >= after, let firstUser {
                signIn.decision = .approved(subject: firstUser)
                signIn.decidedAt = now
            }
            switch signIn.decision {
            case .pending:
                return .refused(Self.oauthError("authorization_pending", "the user has not approved the sign-in yet"))
            case .denied:
                signIn.used = true
                return .refused(Self.oauthError("access_denied", "the user denied the sign-in"))
            case .approved(let subject):
                signIn.used = true
                var grant = state.newGrant(clientID: clientID, subject: subject, scopes: signIn.scopes, jkt: jkt, authenticatedAt: signIn.decidedAt ?? now)
                grant.resources = signIn.resources
                guard let audience = Self.audience(asked: resources, of: grant, known: known) else {
                    return .refused(Self.oauthError("invalid_target", "the resource was not named when the sign-in began"))
                }
                return .passed((grant, issueTokens(for: grant, in: &state, now: now, withRefreshToken: true, audience: audience)))
            }
        }
        switch outcome {
        case .refused(let response): return response
        case .passed(let (grant, tokens)): return tokenResponse(tokens, grant: grant, nonce: nil, now: now, audience: nil)
        }
    }

    /// The user at another device decides on the sign-in with `userCode`; false when none is
    /// pending with that code.
    func decideDeviceSignIn(userCode: String, _ decision: DeviceSignIn.Decision) -> Bool {
        let now = options.clock.now()
        return withState { state in
            guard let entry = state.deviceSignIns.first(where: { Exact.equal($0.value.userCode, userCode) && $0.value.decision == .pending && !$0.value.used })
            else { return false }
            state.deviceSignIns[entry.key]?.decision = decision
            state.deviceSignIns[entry.key]?.decidedAt = now
            return true
        }
    }

    /// Eight letters a person can type, in two groups (RFC 8628 §6.1): no vowels, so no words.
    private static func userCode() -> String {
        let letters = Array("BCDFGHJKLMNPQRSTVWXZ")
        let code = String((0..<8).map { _ in letters.randomElement() ?? "B" })
        return code.prefix(4) + "-" + code.suffix(4)
    }
}
