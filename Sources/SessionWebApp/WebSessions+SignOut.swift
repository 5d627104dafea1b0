import Foundation
import SessionCore

/// Ending sessions: a browser's sign-out, every session of a user, the provider's session too.
extension WebSessions {
    /// The sign-out route (a POST): ends the session of `request`'s browser here, whatever the
    /// provider says, and revokes its grant there, best effort.
    ///
    /// A cross-site request is refused with a 403 and nothing ended: the request must come from
    /// the application's origin (`Origin`, else `Sec-Fetch-Site: same-origin`), or, from a browser
    /// that sends neither, carry the session's ``WebSession/csrfToken``.
    /// - Parameters:
    ///   - request: the sign-out's request.
    ///   - csrfToken: the token the sign-out form carried, if any.
    /// - Returns: a 303 to ``WebSessionOptions/signedOutURL`` deleting the session cookie, and what
    ///   became of the session (nil when the browser had none).
    /// - Throws: `storageFailed` when the store cannot delete the session: it has not ended (answer
    ///   503; the browser keeps its cookie and may try again).
    public func signOut(_ request: WebRequest, csrfToken: String? = nil) async throws -> WebSignOut {
        guard isSameOrigin(request, csrfToken: csrfToken) else {
            provider.log(.warning, "a sign-out from another site was refused")
            return WebSignOut(response: WebResponse(status: 403), ended: nil)
        }
        var ended: WebSessionEnd?
        if let id = request.cookie(named: options.sessionCookieName).flatMap(WebSessionID.init(identifier:)) {
            ended = try await end(id, revoking: true)
        }
        return WebSignOut(response: .seeOther(options.signedOutURL, setting: [WebCookie.delete(options.sessionCookieName)]), ended: ended)
    }

    /// The sessions of `subject`, newest first: for a page listing where the user is signed in.
    public func sessions(ofSubject subject: String) async throws -> [WebSessionRecord] {
        try await store.records(ofSubject: subject)
    }

    /// Ends every session of `subject` ("sign out everywhere"), revoking each grant best effort.
    /// - Returns: what became of each.
    public func endSessions(ofSubject subject: String) async throws -> [WebSessionEnd] {
        var ended: [WebSessionEnd] = []
        for record in try await store.records(ofSubject: subject) {
            if let end = try await end(record.id, revoking: true) { ended.append(end) }
        }
        return ended
    }

    /// Ends the session `id` here and, when `revoking`, revokes its grant; nil when it was not there.
    /// - Throws: the store's `storageFailed`: the session has not ended.
    func end(_ id: WebSessionID, revoking: Bool) async throws -> WebSessionEnd? {
        clients.remove(id)
        guard let removed = try await store.remove(id) else { return nil }
        provider.log(.info, "\(id) ended")
        guard revoking, let tokens = removed.tokens else {
            return WebSessionEnd(id: id, subject: removed.record.subject, revocation: nil, idToken: removed.tokens?.idToken)
        }
        let revocation = await revoke(tokens)
        if case .failure(let failure) = revocation {
            provider.log(.warning, "\(id) ended here; its grant could not be revoked (\(failure.code.rawValue))")
        }
        return WebSessionEnd(id: id, subject: removed.record.subject, revocation: revocation, idToken: tokens.idToken)
    }

    /// Revokes the grant of an ended session's `tokens` (RFC 7009).
    func revoke(_ tokens: SessionTokens) async -> Result<Void, SessionError> {
        do {
            try await TokenRevocation(provider: provider).revoke(tokens)
            return .success(())
        } catch {
            return .failure(error as? SessionError ?? SessionError(.invalidResponse, process: .endSession, message: "the revocation failed"))
        }
    }

    /// True for a request from the application's own pages.
    private func isSameOrigin(_ request: WebRequest, csrfToken: String?) -> Bool {
        if let origin = request.origin {
            return ASCII.equalIgnoringCase(origin, options.serializedOrigin)
        }
        if let site = request.fetchSite {
            return ASCII.equalIgnoringCase(site, "same-origin")
        }
        guard let csrfToken, !csrfToken.isEmpty, let identifier = request.cookie(named: options.sessionCookieName) else { return false }
        let expected = WebSession.csrfToken(for: identifier)
        // Compared as digests: the time a comparison takes says nothing of the expected token.
        return !expected.isEmpty && (try? PlatformCrypto.sha256(Data(csrfToken.utf8))) == (try? PlatformCrypto.sha256(Data(expected.utf8)))
    }
}

/// A finished sign-out: what to send the browser, and what became of its session.
public struct WebSignOut: Sendable {
    /// A 303 to the signed-out page deleting the session cookie; a 403 when refused as cross-site.
    public let response: WebResponse
    /// The session ended; nil when the browser had none, or the request was refused.
    public let ended: WebSessionEnd?
}

/// A web session ended here, and what became of its grant at the provider.
public struct WebSessionEnd: Sendable {
    /// The session.
    public let id: WebSessionID
    /// Whose it was.
    public let subject: String?
    /// The revocation of its grant: nil when none was asked for (or it held no tokens), else its
    /// outcome. A failure leaves the refresh token live at the provider until it expires there;
    /// the session here has ended all the same.
    public let revocation: Result<Void, SessionError>?
    /// The session's ID token, for an RP-initiated logout's `id_token_hint`.
    let idToken: String?

    init(id: WebSessionID, subject: String?, revocation: Result<Void, SessionError>?, idToken: String? = nil) {
        self.id = id
        self.subject = subject
        self.revocation = revocation
        self.idToken = idToken
    }
}
