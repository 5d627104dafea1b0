import Foundation
import SessionCore

/// OpenID Connect Back-Channel Logout 1.0: the provider tells the application, server to server,
/// that a user's session there ended, and every web session of it ends here — on every instance,
/// since they all read the one store.
extension WebSessions {
    /// The back-channel logout route (the `backchannel_logout_uri` registered with the provider):
    /// a POST whose form body holds one `logout_token`. A valid token ends every session of its
    /// `sid` (of its `sub` too, when it names both), or, without `sid`, every session of its `sub`;
    /// their grants are not revoked (the provider ended them). A token is taken once: its `jti` is
    /// remembered in the store, and forgotten again when the store could not end its sessions, so
    /// the provider's next delivery of it is taken.
    /// - Parameters:
    ///   - request: the provider's request.
    ///   - body: its body, `application/x-www-form-urlencoded`.
    /// - Returns: 200 when the token was valid (whether or not a session of it was here), 400 with
    ///   nothing ended when it was not, or the request was not such a POST; every answer `no-store`.
    public func backChannelLogout(_ request: WebRequest, body: Data) async -> WebBackChannelLogout {
        do {
            guard Exact.equal(request.method, "POST") else { throw Self.refused("a back-channel logout is a POST") }
            let values = FormEncoding.values(named: "logout_token", in: body)
            guard values.count == 1, let raw = values.first else { throw Self.refused("the body must hold one logout_token") }
            let token = try await provider.validateLogoutToken(raw, maxAge: options.logoutTokenMaxAge)
            guard try await store.noteLogoutToken(token.tokenID, until: token.acceptableUntil) else {
                throw Self.refused("this logout token was presented before")
            }
            let ended: [WebSessionEnd]
            do {
                ended = try await endSessions(of: token)
            } catch {
                // Not carried out: the provider may deliver the token again, and then it must be
                // taken, or the sessions it names would outlive the logout.
                do {
                    try await store.forgetLogoutToken(token.tokenID)
                } catch {
                    provider.log(.warning, "back-channel logout: its token could not be forgotten; a delivery again will be refused")
                }
                throw error
            }
            provider.log(.info, "back-channel logout: \(ended.count) web session(s) ended")
            return WebBackChannelLogout(response: WebResponse(status: 200), ended: ended, refusal: nil)
        } catch {
            let refusal = error as? SessionError ?? Self.refused("the logout could not be carried out")
            provider.log(.warning, "back-channel logout refused (\(refusal.code.rawValue))")
            return WebBackChannelLogout(response: WebResponse(status: 400), ended: [], refusal: refusal)
        }
    }

    /// Ends every session of `token`'s `sid` (of its `sub` too, when it names both), or without
    /// `sid`, every session of its `sub`.
    private func endSessions(of token: LogoutToken) async throws -> [WebSessionEnd] {
        var records: [WebSessionRecord]
        if let sid = token.providerSessionID {
            records = try await store.records(ofProviderSession: sid)
            if let subject = token.subject { records = records.filter { Exact.equal($0.subject, subject) } }
        } else {
            records = try await store.records(ofSubject: token.subject ?? "")
        }
        var ended: [WebSessionEnd] = []
        for record in records {
            if let end = try await end(record.id, revoking: false) { ended.append(end) }
        }
        return ended
    }

    private static func refused(_ why: String) -> SessionError {
        SessionError(.invalidLogoutToken, process: .endSession, message: "back-channel logout: \(why); nothing was ended")
    }
}

/// What a back-channel logout did.
public struct WebBackChannelLogout: Sendable {
    /// The answer for the provider: 200, or 400 when refused.
    public let response: WebResponse
    /// The sessions ended.
    public let ended: [WebSessionEnd]
    /// Why the request was refused; nil when it was carried out.
    public let refusal: SessionError?
}
