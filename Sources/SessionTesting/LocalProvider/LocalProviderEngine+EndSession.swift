import Foundation
import LoopbackHTTP
import SessionCore

/// RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0 §2–3), as strictly as a real
/// provider: an `id_token_hint` must be an ID token this provider signed for the client, and the
/// browser is sent back only to a redirect URI registered for it, with the `state` it brought.
extension LocalProviderEngine {
    func endSession(_ request: HTTPServerRequest) -> HTTPServerResponse {
        guard request.method == "GET" || request.method == "POST" else { return Self.page("Method not allowed", status: 405) }
        let items = request.method == "GET" ? request.queryItems : request.formItems
        if let repeated = Self.repeatedParameter(items) { return Self.page("Parameter \(repeated) is repeated.", status: 400) }
        let parameters = Self.firstValues(items)
        var clientID = parameters["client_id"]
        var ended: (subject: String?, sessionID: String?)?
        if let hint = parameters["id_token_hint"] {
            guard let claims = hintClaims(hint), let audience = claims["aud"]?.stringValue ?? claims["aud"]?.arrayValue?.first?.stringValue else {
                return Self.page("The id_token_hint is not an ID token of this provider.", status: 400)
            }
            if let named = clientID, !Exact.equal(named, audience) { return Self.page("The id_token_hint belongs to another client.", status: 400) }
            clientID = audience
            ended = (claims["sub"]?.stringValue, claims["sid"]?.stringValue)
        }
        // The provider's session is over: its clients hear it server to server first (§2.7 of
        // Back-Channel Logout), before the browser goes anywhere.
        if let ended, let clientID, let client = client(withID: clientID),
           let uri = withState({ $0.backChannelLogoutURIs[client.id] }) ?? client.backChannelLogoutURI,
           let token = try? logoutToken(clientID: clientID, subject: ended.subject, sessionID: ended.sessionID) {
            deliverLogoutToken(token, to: uri)
        }
        guard let redirectURI = parameters["post_logout_redirect_uri"] else {
            withState { $0.endedSessions += 1 }
            return Self.page("You are signed out.", status: 200)
        }
        // Never redirect to a URI the client did not register (§3), nor for an unknown client.
        guard let clientID, let client = client(withID: clientID),
              Self.isRegistered(redirectURI, for: client) else {
            return Self.page("The post_logout_redirect_uri is not registered for this client.", status: 400)
        }
        withState { $0.endedSessions += 1 }
        let pairs = parameters["state"].map { [("state", $0)] } ?? []
        let separator = redirectURI.contains("?") ? "&" : "?"
        return HTTPServerResponse(status: 302, headers: [("Location", pairs.isEmpty ? redirectURI : redirectURI + separator + FormEncoding.encode(pairs))])
    }

    /// The claims of an ID token this provider signed; nil for anything else. An expired token is
    /// still a valid hint (§2: the session may have outlived it).
    private func hintClaims(_ raw: String) -> [String: JSONValue]? {
        let malformed = { SessionError(.invalidRequest, process: .endSession, message: $0) }
        guard let jws = try? CompactJWS(raw, malformed: malformed),
              let claims = try? CompactJWS.object(jws.payload, part: "payload", malformed: malformed),
              let algorithm = jws.header["alg"]?.stringValue.flatMap(JWSAlgorithm.init(rawValue:)),
              Exact.equal(claims["iss"]?.stringValue, issuer) else { return nil }
        let keys = withState { $0.keys.published.map(\.publicJWK) }
        let kid = jws.header["kid"]?.stringValue
        guard keys.contains(where: { key in
            (kid == nil || Exact.equal(key.kid, kid)) && (try? PlatformCrypto.verify(algorithm, key: key, message: jws.signingInput, signature: jws.signature)) == true
        }) else { return nil }
        return claims
    }
}
