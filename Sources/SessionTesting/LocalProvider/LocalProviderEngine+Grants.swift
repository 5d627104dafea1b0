import Foundation
import LoopbackHTTP
import SessionCore

/// The authorization endpoint (RFC 6749 §4.1.1, RFC 7636, RFC 9207) and the token endpoint
/// (§4.1.3 and §6, with rotation and reuse detection).
extension LocalProviderEngine {
    func authorize(_ request: HTTPServerRequest) -> HTTPServerResponse {
        guard request.method == "GET" || request.method == "POST" else { return Self.page("Method not allowed", status: 405) }
        var items = request.method == "GET" ? request.queryItems : request.formItems
        switch pushedParameters(items) {
        case .passed(let pushed?): items = pushed
        case .passed(nil): break
        case .refused(let refusal): return refusal
        }
        let parameters = Self.firstValues(items)
        // Without a known client and a registered redirect URI the provider must not redirect (§4.1.2.1).
        guard let clientID = parameters["client_id"], let client = client(withID: clientID) else {
            return Self.page("Unknown client.", status: 400)
        }
        guard let redirectURI = parameters["redirect_uri"], Self.isRegistered(redirectURI, for: client) else {
            return Self.page("The redirect URI is not registered for this client.", status: 400)
        }
        let state = parameters["state"]
        func redirect(_ result: [(String, String)]) -> HTTPServerResponse {
            var pairs = result
            if let state { pairs.append(("state", state)) }
            pairs.append(("iss", issuer))
            let separator = redirectURI.contains("?") ? "&" : "?"
            return HTTPServerResponse(status: 302, headers: [("Location", redirectURI + separator + FormEncoding.encode(pairs))])
        }
        func fail(_ error: String, _ description: String) -> HTTPServerResponse {
            redirect([("error", error), ("error_description", description)])
        }
        if let repeated = Self.repeatedParameter(items) { return fail("invalid_request", "parameter \(repeated) is repeated") }
        guard parameters["response_type"] == "code" else { return fail("unsupported_response_type", "only response_type=code is supported") }
        guard let challenge = parameters["code_challenge"], Self.isPKCEValue(challenge, length: 43...43) else {
            return fail("invalid_request", "a PKCE code_challenge is required")
        }
        guard Exact.equal(parameters["code_challenge_method"], PKCE.method) else { return fail("invalid_request", "code_challenge_method must be S256") }
        let scopes = Set((parameters["scope"] ?? "").split(separator: " ").map(String.init))
        guard isGrantable(scopes) else { return fail("invalid_scope", "the scope is empty or unknown") }
        // RFC 9449 §10: the code is bound to the key whose thumbprint the client named.
        let jkt = options.offersDPoP ? parameters["dpop_jkt"] : nil
        if let jkt, !Self.isThumbprint(jkt) { return fail("invalid_request", "dpop_jkt is not a JWK SHA-256 thumbprint") }
        let resources = Self.resources(items)
        guard resources.isSubset(of: knownResources) else { return fail("invalid_target", "the resource is not one this server issues tokens for") }

        let subject: String
        if options.showsLoginPage, withState({ $0.scriptedConsent.isEmpty }) {
            guard let chosen = parameters["login_as"] else { return loginPage(items) }
            guard user(chosen) != nil else { return fail("access_denied", "no such user") }
            subject = chosen
        } else {
            switch withState({ $0.nextConsent() }) {
            case .cancel:
                return Self.page("The sign-in page was closed.", status: 200)
            case .deny:
                return fail("access_denied", "the user denied the request")
            case .approve:
                guard let first = options.users.first else { return fail("server_error", "the provider has no users") }
                subject = first.subject
            case .approveAs(let chosen):
                guard user(chosen) != nil else { return fail("server_error", "the provider has no such user") }
                subject = chosen
            }
        }
        let code = Self.randomValue("code")
        let now = options.clock.now()
        let expiresAt = now.addingTimeInterval(options.codeLifetime)
        withState { state in
            var grant = state.newGrant(clientID: clientID, subject: subject, scopes: scopes, jkt: jkt, authenticatedAt: now)
            grant.resources = resources
            state.codes[code] = IssuedCode(grant: grant, redirectURI: redirectURI, challenge: challenge,
                                           nonce: parameters["nonce"], expiresAt: expiresAt)
            state.noteIssued(at: now)
        }
        return redirect([("code", code)])
    }

    /// Exact match, or an http loopback URI registered without a port and requested with one.
    static func isRegistered(_ redirectURI: String, for client: LocalProvider.Client) -> Bool {
        guard let requested = URLComponents(string: redirectURI) else { return false }
        return client.redirectURIs.contains { registered in
            if Exact.equal(registered.absoluteString, redirectURI) { return true }
            guard var loose = URLComponents(string: redirectURI), requested.scheme == "http",
                  let allowed = URLComponents(url: registered, resolvingAgainstBaseURL: false),
                  allowed.port == nil, URLRules.isLoopbackIPLiteral(host: allowed.host) else { return false }
            loose.port = nil
            return Exact.equal(loose.string, allowed.string)
        }
    }

    /// RFC 7636 §4.1: 43 to 128 characters of `[A-Za-z0-9-._~]`.
    static func isPKCEValue(_ value: String, length: ClosedRange<Int>) -> Bool {
        length.contains(value.count) && value.unicodeScalars.allSatisfy {
            CharacterSet.alphanumerics.contains($0) && $0.isASCII || "-._~".unicodeScalars.contains($0)
        }
    }

    func token(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let (form, clientID): ([String: String], String)
        switch authenticatedForm(request, endpoint: "token endpoint") {
        case .passed(let passed): (form, clientID) = passed
        case .refused(let refusal): return refusal
        }
        let jkt: String?
        switch dpopProof(request, at: .token) {
        case .passed(let passed): jkt = passed
        case .refused(let refusal): return refusal
        }
        if options.requiresDPoP, jkt == nil { return Self.oauthError("invalid_request", "this provider issues DPoP-bound tokens only: send a DPoP proof") }
        var response: HTTPServerResponse
        let resources = Self.resources(request.formItems)
        switch form["grant_type"] {
        case "authorization_code": response = exchangeCode(form, clientID: clientID, jkt: jkt, resources: resources)
        case "refresh_token": response = refresh(form, clientID: clientID, jkt: jkt, resources: resources)
        case "urn:ietf:params:oauth:grant-type:device_code": response = pollDeviceSignIn(form, clientID: clientID, jkt: jkt, resources: resources)
        case nil: response = Self.oauthError("invalid_request", "grant_type is missing")
        default: response = Self.oauthError("unsupported_grant_type", "only authorization_code, refresh_token and device_code are supported")
        }
        response.headers += nonceHeaders
        return response
    }

    /// The code exchange; `jkt` is the thumbprint of the key that proved the request, which must be
    /// the one the code is bound to (`dpop_jkt`), and to which the tokens are then bound.
    private func exchangeCode(_ form: [String: String], clientID: String, jkt: String?, resources: Set<String>) -> HTTPServerResponse {
        let now = options.clock.now()
        let refused = Self.oauthError("invalid_grant", "the code is invalid, expired, used, or not bound to this request")
        guard let code = form["code"] else { return Self.oauthError("invalid_request", "code is missing") }
        guard let verifier = form["code_verifier"], Self.isPKCEValue(verifier, length: 43...128),
              let challenge = try? PKCE.challenge(for: verifier) else {
            return Self.oauthError("invalid_grant", "a valid code_verifier is required")
        }
        let known = knownResources
        let outcome = withState { state -> Checked<(Grant, IssuedCode, Tokens)> in
            guard var issued = state.codes[code] else { return .refused(refused) }
            if issued.used {
                // A replayed code revokes what it produced (RFC 6749 §4.1.2).
                state.revokedFamilies.insert(issued.grant.family)
                return .refused(refused)
            }
            issued.used = true
            state.codes[code] = issued
            guard issued.expiresAt > now, Exact.equal(issued.grant.clientID, clientID), Exact.equal(issued.redirectURI, form["redirect_uri"]),
                  Exact.equal(issued.challenge, challenge), issued.grant.jkt == nil || Exact.equal(issued.grant.jkt, jkt) else { return .refused(refused) }
            var grant = issued.grant
            grant.jkt = jkt
            guard let audience = Self.audience(asked: resources, of: grant, known: known) else {
                return .refused(Self.oauthError("invalid_target", "the resource was not named when the code was issued"))
            }
            return .passed((grant, issued, issueTokens(for: grant, in: &state, now: now, withRefreshToken: true, audience: audience)))
        }
        switch outcome {
        case .refused(let response): return response
        case .passed(let (grant, issued, tokens)): return tokenResponse(tokens, grant: grant, nonce: issued.nonce, now: now, audience: form["audience"])
        }
    }

    /// A refresh; a refresh token bound to a DPoP key is taken only with a proof of that key
    /// (RFC 9449 §5).
    private func refresh(_ form: [String: String], clientID: String, jkt: String?, resources: Set<String>) -> HTTPServerResponse {
        let now = options.clock.now()
        guard let presented = form["refresh_token"] else { return Self.oauthError("invalid_request", "refresh_token is missing") }
        let rotates = options.rotatesRefreshTokens
        let known = knownResources
        let outcome = withState { state -> Checked<(Grant, Tokens)> in
            guard let issued = state.refreshTokens[presented], Exact.equal(issued.grant.clientID, clientID),
                  !state.revokedFamilies.contains(issued.grant.family) else {
                return .refused(Self.oauthError("invalid_grant", "the refresh token is invalid or revoked"))
            }
            guard issued.grant.jkt == nil || Exact.equal(issued.grant.jkt, jkt) else {
                return .refused(Self.oauthError("invalid_dpop_proof", "the refresh token is bound to another DPoP key, or the proof is missing"))
            }
            // RFC 8707 §2.2: the refused resource leaves the refresh token as it was.
            guard let audience = Self.audience(asked: resources, of: issued.grant, known: known) else {
                return .refused(Self.oauthError("invalid_target", "the resource is unknown or beyond what the grant named"))
            }
            guard !issued.retired || isWithinReuseInterval(issued, now: now) else {
                state.refreshTokenReuses += 1
                state.revokedFamilies.insert(issued.grant.family)
                return .refused(Self.oauthError("invalid_grant", "the refresh token was already used; its grant is revoked"))
            }
            if rotates, !issued.retired {
                state.refreshTokens[presented]?.retired = true
                state.refreshTokens[presented]?.retiredAt = now
            }
            if options.revokesAccessTokenOnRefresh, let spent = issued.accessToken { state.accessTokens[spent] = nil }
            let tokens = issueTokens(for: issued.grant, in: &state, now: now, withRefreshToken: rotates, audience: audience)
            // A refresh token that stays is the one the new access token was issued with.
            if !rotates { state.refreshTokens[presented]?.accessToken = tokens.access }
            state.refreshes.append((issued.grant.subject, now))
            if state.refreshes.count > options.requestLogLimit { state.refreshes.removeFirst(state.refreshes.count - options.requestLogLimit) }
            return .passed((issued.grant, tokens))
        }
        switch outcome {
        case .refused(let response): return response
        case .passed(let (grant, tokens)): return tokenResponse(tokens, grant: grant, nonce: nil, now: now, audience: nil)
        }
    }

    /// True when a retired refresh token may still be presented: within
    /// ``LocalProvider/Options/refreshTokenReuseInterval`` of its rotation.
    func isWithinReuseInterval(_ token: IssuedRefreshToken, now: Date) -> Bool {
        guard let interval = options.refreshTokenReuseInterval, let retiredAt = token.retiredAt else { return false }
        return now.timeIntervalSince(retiredAt) <= interval
    }

    struct Tokens {
        let access: String
        let refresh: String?
        /// The permission-center token, for a grant with both `openid` and `permission_management`.
        let permission: String?
    }

    /// The audience of a token asked for `asked` from `grant` (RFC 8707 §2.2): the resources asked
    /// for, each known and, when the authorization named resources, among them; the
    /// authorization's when none is asked for. nil when a resource may not be had.
    /// `known` is ``knownResources``, read before the state's lock is taken (it reads the issuer under it).
    static func audience(asked: Set<String>, of grant: Grant, known: Set<String>) -> Set<String>? {
        let named = grant.resources ?? []
        guard !asked.isEmpty else { return named }
        guard asked.isSubset(of: known), named.isEmpty || asked.isSubset(of: named) else { return nil }
        return asked
    }

    func issueTokens(for grant: Grant, in state: inout LocalProviderState, now: Date, withRefreshToken: Bool,
                     audience: Set<String> = []) -> Tokens {
        let access = Self.randomValue("at")
        state.accessTokens[access] = IssuedAccessToken(grant: grant, expiresAt: now.addingTimeInterval(options.accessTokenLifetime),
                                                       audience: audience)
        var refresh: String?
        if withRefreshToken {
            let token = Self.randomValue("rt")
            state.refreshTokens[token] = IssuedRefreshToken(grant: grant, accessToken: access)
            refresh = token
        }
        var permission: String?
        if grant.scopes.isSuperset(of: ["openid", "permission_management"]) {
            let token = Self.randomValue("pt")
            state.permissionTokens[token] = IssuedAccessToken(grant: grant, expiresAt: now.addingTimeInterval(options.accessTokenLifetime))
            permission = token
        }
        state.noteIssued(at: now)
        return Tokens(access: access, refresh: refresh, permission: permission)
    }

    /// The token response. A code exchange naming the app's server as `audience` also gets a
    /// one-time `server_code` for that server, as Google's token endpoint gives.
    func tokenResponse(_ tokens: Tokens, grant: Grant, nonce: String?, now: Date, audience: String?) -> HTTPServerResponse {
        var body: [String: Any] = [
            "access_token": tokens.access,
            "token_type": grant.jkt == nil ? "Bearer" : "DPoP",
            "expires_in": Int(options.accessTokenLifetime),
            "scope": grant.scopes.sorted().joined(separator: " "),
        ]
        if let refresh = tokens.refresh { body["refresh_token"] = refresh }
        if let audience, !audience.isEmpty { body["server_code"] = Self.randomValue("sc") }
        if grant.scopes.contains("openid") {
            var claims: [String: Any] = [
                "iss": issuer, "sub": grant.subject, "aud": grant.clientID, "azp": grant.clientID,
                "iat": Int(now.timeIntervalSince1970), "auth_time": Int(grant.authenticatedAt.timeIntervalSince1970), "jti": Self.randomValue("id"),
                "exp": Int(now.addingTimeInterval(options.idTokenLifetime).timeIntervalSince1970),
            ]
            if let nonce { claims["nonce"] = nonce }
            if let sessionID = grant.sessionID { claims["sid"] = sessionID }
            if options.idTokensCarryProfile, let user = user(grant.subject) {
                claims.merge(Self.profileClaims(of: user, scopes: grant.scopes)) { current, _ in current }
            }
            // netID hands the permission center's token to the client inside the ID token.
            if let permission = tokens.permission { claims["permission_management"] = ["access_token": permission] }
            let unsigned = client(withID: grant.clientID)?.idTokenSigning == .unsigned
            guard let idToken = unsigned ? Self.unsignedToken(claims) : try? withState({ $0.keys.signing }).sign(claims: claims) else {
                return Self.oauthError("server_error", "the ID token could not be signed", status: 500)
            }
            body["id_token"] = idToken
        }
        return Self.json(body, headers: [("Pragma", "no-cache")])
    }

    /// The profile claims of `user` that `scopes` grant (OIDC Core §5.4): `profile` the names and
    /// picture, `email` the address.
    static func profileClaims(of user: LocalProvider.User, scopes: Set<String>) -> [String: Any] {
        var claims: [String: Any] = [:]
        if scopes.contains("profile") {
            claims["name"] = "\(user.givenName) \(user.familyName)"
            claims["given_name"] = user.givenName
            claims["family_name"] = user.familyName
            if let picture = user.picture { claims["picture"] = picture.absoluteString }
        }
        if scopes.contains("email") { (claims["email"], claims["email_verified"]) = (user.email, true) }
        return claims
    }

    /// An unsigned JWS (`alg` `none`, empty signature) of `claims`, for clients registered that way.
    static func unsignedToken(_ claims: [String: Any]) -> String? {
        guard let header = try? JSONSerialization.data(withJSONObject: ["alg": "none", "typ": "JWT"], options: [.sortedKeys]),
              let payload = try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]) else { return nil }
        return "\(SigningKey.base64URL(header)).\(SigningKey.base64URL(payload))."
    }
}
