import Foundation
import LoopbackHTTP
import SessionCore

extension LocalProviderEngine {
    /// Token introspection (RFC 7662) for the confidential clients, about their own tokens: a
    /// refresh token is active while presenting it would be honoured (neither retired — unless
    /// within the reuse interval — nor of a revoked grant), an access token until it expires or is
    /// revoked. A public client cannot introspect (`invalid_client`), as at
    /// django-oauth-toolkit, Keycloak and Okta; another client's token is inactive (§2.2).
    func introspect(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let (form, clientID): ([String: String], String)
        switch authenticatedForm(request, endpoint: "introspection endpoint") {
        case .refused(let refusal): return refusal
        case .passed(let passed): (form, clientID) = passed
        }
        guard let client = client(withID: clientID), client.authentication != .none else {
            return Self.oauthError("invalid_client", "only a confidential client may introspect", status: 401)
        }
        guard let token = form["token"], !token.isEmpty else { return Self.oauthError("invalid_request", "token is missing") }
        let now = options.clock.now()
        let active: (grant: Grant, type: String)? = withState { state in
            if let refresh = state.refreshTokens[token], !state.revokedFamilies.contains(refresh.grant.family),
               !refresh.retired || isWithinReuseInterval(refresh, now: now) {
                return (refresh.grant, "refresh_token")
            }
            if let access = state.accessTokens[token], access.expiresAt > now, !state.revokedFamilies.contains(access.grant.family) {
                return (access.grant, "access_token")
            }
            return nil
        }
        guard let active, Exact.equal(active.grant.clientID, clientID) else { return Self.json(["active": false]) }
        return Self.json(["active": true, "client_id": clientID, "sub": active.grant.subject, "scope": active.grant.scopes.sorted().joined(separator: " "),
                          "token_type": active.type])
    }
}
