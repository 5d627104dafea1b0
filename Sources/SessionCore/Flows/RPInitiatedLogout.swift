import Foundation

/// OpenID Connect RP-Initiated Logout 1.0: the request that sends the browser to the provider's
/// `end_session_endpoint` (§2), and the check of its return to the post-logout redirect URI (§3).
/// A session with an agent (`SessionClient`) and a web application's two routes both use it.
package enum RPInitiatedLogout {
    /// The end-session request: `id_token_hint` (when there is an ID token), `client_id`,
    /// `post_logout_redirect_uri` and `state`, appended to any query the endpoint has.
    /// - Throws: `invalidDiscoveryDocument` when the URL cannot be built.
    package static func url(_ endpoint: URL, idToken: String?, clientID: String, returnURI: URL, state: String) throws -> URL {
        var parameters = [("client_id", clientID), ("post_logout_redirect_uri", returnURI.absoluteString), ("state", state)]
        if let idToken { parameters.insert(("id_token_hint", idToken), at: 0) }
        guard let url = FormEncoding.url(endpoint, appending: parameters) else {
            throw SessionError(.invalidDiscoveryDocument, process: .endSession, message: "the end-session URL cannot be built")
        }
        return url
    }

    /// True when `returned`, the provider's redirect back, carries `state` exactly once and exactly.
    package static func returnCarries(_ state: String, in returned: URL) -> Bool {
        let states = URLComponents(url: returned, resolvingAgainstBaseURL: false)?.queryItems?.filter { Exact.equal($0.name, "state") } ?? []
        return states.count == 1 && Exact.equal(states[0].value, state)
    }
}
