import Foundation
import SessionCore

/// OpenID Connect RP-Initiated Logout 1.0 for a server, in two routes: the sign-out ends the session
/// here and sends the browser to the provider's end-session endpoint; the provider sends it back
/// to the post-logout redirect URI, where its `state` is checked.
extension WebSessions {
    /// The sign-out route, ending the user's session at the provider too: as
    /// ``signOut(_:csrfToken:)`` (refused cross-site; the session here ends whatever the provider says, its grant
    /// revoked best effort), then a 303 to the provider's `end_session_endpoint` with the session's
    /// ID token as `id_token_hint`, `client_id`, the configuration's `postLogoutRedirectURI` and a
    /// fresh `state`, which the cookie ``WebSessionOptions/signOutCookieName`` carries to
    /// ``completeProviderSignOut(_:)``.
    /// - Parameters:
    ///   - request: the sign-out's request.
    ///   - csrfToken: the token the sign-out form carried, if any.
    /// - Throws: `unsupportedProviderFeature` when the provider has no `end_session_endpoint`, and
    ///   `invalidConfiguration` when the configuration has no `postLogoutRedirectURI`, before
    ///   anything is ended; discovery errors; as ``signOut(_:csrfToken:)``.
    public func signOutAtProvider(_ request: WebRequest, csrfToken: String? = nil) async throws -> WebSignOut {
        let metadata = try await provider.discover()
        guard let endpoint = metadata.endSessionEndpoint else {
            throw SessionError(.unsupportedProviderFeature, process: .endSession, message: "the provider has no end_session_endpoint; nothing was signed out")
        }
        guard let returnURI = provider.configuration.postLogoutRedirectURI else {
            throw SessionError(.invalidConfiguration, process: .endSession, message: "signing out at the provider needs the configuration's postLogoutRedirectURI")
        }
        let local = try await signOut(request, csrfToken: csrfToken)
        guard local.response.status == 303 else { return local }
        let state = try RandomToken.generate()
        let url = try RPInitiatedLogout.url(endpoint, idToken: local.ended?.idToken, clientID: provider.configuration.clientID,
                                            returnURI: returnURI, state: state)
        let cookies = local.response.setCookies + [WebCookie.set(options.signOutCookieName, state, maxAge: options.signInLifetime)]
        return WebSignOut(response: .seeOther(url, setting: cookies), ended: local.ended)
    }

    /// The post-logout redirect route: the provider's return from ``signOutAtProvider(_:csrfToken:)``,
    /// checked to carry the `state` this browser's cookie holds.
    /// - Returns: a 303 to ``WebSessionOptions/signedOutURL`` deleting the sign-out cookie.
    /// - Throws: `stateMismatch` for a return without this browser's `state` (none, another, or
    ///   repeated): the provider's session may still be open. Answer it with a 400 that deletes
    ///   the cookie (``signOutFailedCookies``).
    public func completeProviderSignOut(_ request: WebRequest) async throws -> WebResponse {
        guard let expected = request.cookie(named: options.signOutCookieName), RPInitiatedLogout.returnCarries(expected, in: request.url) else {
            throw SessionError(.stateMismatch, process: .endSession, message: "the provider's sign-out came back without this browser's state")
        }
        return .seeOther(options.signedOutURL, setting: signOutFailedCookies)
    }

    /// The cookies a failed post-logout return's answer sets: the sign-out cookie deleted.
    public nonisolated var signOutFailedCookies: [String] { [WebCookie.delete(options.signOutCookieName)] }
}
