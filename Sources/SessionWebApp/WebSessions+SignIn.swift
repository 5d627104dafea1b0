import Foundation
import SessionCore

/// A browser's sign-in in two routes: the login route sends it to the provider, the callback route
/// makes its session.
extension WebSessions {
    /// The login route: a 303 to the provider's sign-in page, setting the cookie that carries the
    /// pending sign-in (sealed, or the binding to its record) to the callback.
    /// - Parameter scopes: the scopes to ask for (nil: the configuration's).
    /// - Throws: discovery and configuration errors; `cryptoFailure`; the pending store's `storageFailed`.
    public func beginSignIn(scopes: [String]? = nil) async throws -> WebResponse {
        let begun = try await SessionClient(provider: provider).beginAuthorization(scopes: scopes, keepingIn: pending,
                                                                                  lifetime: options.signInLifetime)
        return .seeOther(begun.request.url, setting: [WebCookie.set(options.signInCookieName, begun.cookie ?? "", maxAge: options.signInLifetime)])
    }

    /// The callback route: finishes the sign-in `request` brings back (its URL the provider's
    /// redirect, its cookies those of the browser that began it) and makes the browser's session
    /// under a new identifier. A session the browser had is replaced, its grant revoked when
    /// ``WebSessionOptions/revokesReplacedSessions``.
    /// - Parameters:
    ///   - request: the callback's request.
    ///   - destination: where the browser goes next (default ``WebSessionOptions/signedInURL``);
    ///     it must be on the application's origin.
    /// - Returns: the new session, and the response: a 303 to `destination` setting the session
    ///   cookie and deleting the sign-in cookie.
    /// - Throws: the sign-in's errors: `stateMismatch` for a callback this browser did not begin
    ///   (no cookie, another browser's, replayed, expired), `accessDenied` and other provider
    ///   errors, ID-token errors; `invalidConfiguration` for a destination on another origin;
    ///   the store's `storageFailed`. Answer them with a 400 that deletes the sign-in cookie
    ///   (``signInFailedCookies``).
    public func completeSignIn(_ request: WebRequest, then destination: URL? = nil) async throws -> WebSignIn {
        let destination = try sameOrigin(destination ?? options.signedInURL)
        let tokens = try await SessionClient(provider: provider).completeAuthorization(
            callbackURL: request.url, keptIn: pending, cookie: request.cookie(named: options.signInCookieName))
        let now = clock.now()
        let (identifier, id) = try WebSessionID.make()
        let providerSessionID = tokens.idToken.flatMap { try? IDToken($0) }?.claims["sid"]?.stringValue
        do {
            try await store.insert(WebSessionRecord(id: id, subject: tokens.subject, providerSessionID: providerSessionID,
                                                    createdAt: now, lastUsedAt: now), tokens: tokens)
        } catch {
            // Nobody will hold these tokens: their grant is ended rather than left live at the provider.
            _ = await revoke(tokens)
            throw error
        }
        var replaced: WebSessionEnd?
        if let old = request.cookie(named: options.sessionCookieName).flatMap(WebSessionID.init(identifier:)) {
            // The new session stands even when the old one cannot be deleted now: it expires.
            replaced = try? await end(old, revoking: options.revokesReplacedSessions)
        }
        provider.log(.info, "\(id) began\(replaced == nil ? "" : ", replacing the browser's previous one")")
        guard let session = try await session(id, identifier: identifier) else {
            throw SessionError(.sessionEnded, process: .authentication, message: "the new web session ended before it was used")
        }
        let response = WebResponse.seeOther(destination, setting: [
            WebCookie.set(options.sessionCookieName, identifier, maxAge: options.absoluteTimeout),
            WebCookie.delete(options.signInCookieName),
        ])
        return WebSignIn(session: session, response: response, replaced: replaced)
    }

    /// The cookies a failed callback's answer sets: the sign-in cookie deleted, so the browser does
    /// not carry a spent sign-in further.
    public nonisolated var signInFailedCookies: [String] { [WebCookie.delete(options.signInCookieName)] }

    /// `url` when it is on the application's origin.
    func sameOrigin(_ url: URL) throws -> URL {
        guard Exact.equal(WebSessionOptions.origin(of: url), options.serializedOrigin) else {
            throw SessionError(.invalidConfiguration, process: .authentication, message: "a redirect must stay on the application's origin")
        }
        return url
    }
}

/// A finished sign-in: the browser's new session, what to send it, and the session it replaced.
public struct WebSignIn: Sendable {
    /// The new session.
    public let session: WebSession
    /// A 303 to the destination, setting the session cookie and deleting the sign-in cookie.
    public let response: WebResponse
    /// The session this browser had before, ended; nil when it had none.
    public let replaced: WebSessionEnd?
}
