import Foundation
import SessionCore

/// OpenID Connect Back-Channel Logout 1.0 from the provider's side: logout tokens, signed with the
/// ID tokens' key, posted to a client's `backchannel_logout_uri`.
extension LocalProviderEngine {
    /// A logout token for `clientID` naming `subject` and the provider session `sessionID` (§2.4),
    /// with `changes` applied to its claims (a nil value removes one) and `header` to its header:
    /// tests break one rule at a time with them.
    func logoutToken(clientID: String, subject: String?, sessionID: String?, changes: [String: Any?] = [:],
                     header: [String: Any] = [:]) throws -> String {
        let now = Int(options.clock.now().timeIntervalSince1970)
        var claims: [String: Any] = [
            "iss": issuer, "aud": clientID, "iat": now, "exp": now + 120, "jti": Self.randomValue("lt"),
            "events": [LocalProvider.backChannelLogoutEvent: [String: Any]()],
        ]
        if let subject { claims["sub"] = subject }
        if let sessionID { claims["sid"] = sessionID }
        for (name, value) in changes { claims[name] = value }
        return try withState { $0.keys.signing }.sign(claims: claims, header: ["typ": "logout+jwt"].merging(header) { _, new in new })
    }

    /// Posts `token` to `uri` and waits for the answer, on the connection's own thread (not the
    /// cooperative pool's), so the logout has reached the client before the browser is answered;
    /// a client that does not answer within 15 s is noted as not having answered.
    func deliverLogoutToken(_ token: String, to uri: URL) {
        let status = Locked<Int?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let response = try? await PlatformDefaults.httpTransport().send(HTTPRequest.formPost(uri, [("logout_token", token)]))
            status.withLock { $0 = response?.status }
            done.signal()
        }
        _ = done.wait(timeout: .now() + 15)
        withState { $0.backChannelLogouts.append((uri, status.value)) }
    }
}
