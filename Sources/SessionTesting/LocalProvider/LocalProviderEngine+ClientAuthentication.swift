import Foundation
import LoopbackHTTP
import SessionCore

extension LocalProviderEngine {
    /// Who sent a token or revocation request, or the answer that refuses it.
    enum ClientCheck {
        case client(String)
        case refused(HTTPServerResponse)
    }

    /// The form of a POST to an endpoint that authenticates the client, and the client it
    /// authenticated; or the answer refusing it: not a POST, not form-encoded, a repeated
    /// parameter (RFC 6749 §3.1), or a client that did not authenticate.
    func authenticatedForm(_ request: HTTPServerRequest, endpoint: String) -> Checked<(form: [String: String], clientID: String)> {
        guard request.method == "POST" else { return .refused(Self.oauthError("invalid_request", "the \(endpoint) takes POST", status: 405)) }
        guard request.header("Content-Type")?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true else {
            return .refused(Self.oauthError("invalid_request", "the body must be form-encoded"))
        }
        let items = request.formItems
        if let repeated = Self.repeatedParameter(items) { return .refused(Self.oauthError("invalid_request", "parameter \(repeated) is repeated")) }
        let form = Self.firstValues(items)
        switch authenticateClient(request, form: form) {
        case .client(let id): return .passed((form, id))
        case .refused(let refusal): return .refused(refusal)
        }
    }

    /// The client a token or revocation request comes from, authenticated as it registered
    /// (RFC 6749 §2.3): a public client by its `client_id` alone; a confidential one only by its
    /// method and secret, or by a client assertion its registered key signed (RFC 7523 §2.2).
    /// Anything else is `invalid_client` (401 with a Basic challenge, §5.2), and so is a request
    /// that uses two methods at once.
    func authenticateClient(_ request: HTTPServerRequest, form: [String: String]) -> ClientCheck {
        func refuse(_ why: String) -> ClientCheck { .refused(Self.oauthError("invalid_client", why, status: 401)) }
        let basic = request.header("Authorization").flatMap(Self.basicCredentials)
        if request.header("Authorization") != nil, basic == nil { return refuse("the Authorization header is not Basic credentials") }
        let assertion = form["client_assertion"].flatMap(Self.parseAssertion)
        let methods = [basic != nil, form["client_secret"] != nil, form["client_assertion"] != nil || form["client_assertion_type"] != nil]
        guard methods.filter({ $0 }).count <= 1 else { return refuse("the client used more than one authentication method") }
        // With an assertion, client_id is optional (RFC 7523 §3): the assertion's subject names the client.
        guard let clientID = basic?.id ?? form["client_id"] ?? assertion?.claims["sub"]?.stringValue,
              let client = client(withID: clientID) else { return refuse("unknown client") }
        if let formID = form["client_id"], !Exact.equal(formID, clientID) { return refuse("two client IDs") }
        switch client.authentication {
        case .none where !methods.contains(true):
            return .client(clientID)
        case .clientSecretBasic(let secret) where basic.map({ Exact.equal($0.secret, secret) }) == true:
            return .client(clientID)
        case .clientSecretPost(let secret) where form["client_secret"].map({ Exact.equal($0, secret) }) == true:
            return .client(clientID)
        case .privateKeyJWT(let key) where form["client_assertion"] != nil:
            guard let assertion else { return refuse("the client assertion is not a JWS with a JSON payload") }
            if let problem = check(assertion, type: form["client_assertion_type"], clientID: clientID, key: key.publicJWK) { return refuse(problem) }
            return .client(clientID)
        default:
            return refuse("the client did not authenticate as it registered")
        }
    }

    /// The longest assertion lifetime accepted: a longer-lived one would be a reusable credential.
    static let maximumAssertionLifetime: TimeInterval = 600
    /// The clock difference tolerated on `iat` and `nbf`.
    static let assertionClockSkew: TimeInterval = 60

    /// Why the request's client assertion does not authenticate `clientID`, whose registered
    /// public key is `key`; nil when it does. Checked as RFC 7523 §3 and OpenID Connect Core §9
    /// require: the type, the signature by the registered key and algorithm, `iss` and `sub`
    /// the client, `aud` this token endpoint or the issuer (only the issuer, as a string, when
    /// ``LocalProvider/Options/requiresIssuerAsAssertionAudience``), a near `exp`, and a `jti`
    /// never seen before.
    private func check(_ assertion: ParsedAssertion, type: String?, clientID: String, key: JSONWebKey) -> String? {
        guard Exact.equal(type, "urn:ietf:params:oauth:client-assertion-type:jwt-bearer") else { return "client_assertion_type is not jwt-bearer" }
        let (jws, claims) = (assertion.jws, assertion.claims)
        guard Exact.equal(jws.header["alg"]?.stringValue, key.alg), let algorithm = key.alg.flatMap(JWSAlgorithm.init(rawValue:)) else {
            return "the client assertion is not signed with the registered key's algorithm"
        }
        if jws.header["crit"] != nil { return "the client assertion has critical header parameters" }
        if let kid = jws.header["kid"], !Exact.equal(kid.stringValue, key.kid) { return "the client assertion names another key" }
        guard (try? PlatformCrypto.verify(algorithm, key: key, message: jws.signingInput, signature: jws.signature)) == true else {
            return "the client assertion's signature does not verify with the registered key"
        }
        guard Exact.equal(claims["iss"]?.stringValue, clientID), Exact.equal(claims["sub"]?.stringValue, clientID) else {
            return "the client assertion's iss and sub are not the client"
        }
        if options.requiresIssuerAsAssertionAudience {
            guard Exact.equal(claims["aud"]?.stringValue, issuer) else { return "the client assertion's aud is not the issuer alone" }
        } else {
            let tokenEndpoint = issuer + Endpoint.token.path
            let audiences = claims["aud"].flatMap { $0.stringValue.map { [$0] } ?? $0.arrayValue?.compactMap(\.stringValue) } ?? []
            guard Exact.contains(audiences, tokenEndpoint) || Exact.contains(audiences, issuer) else {
                return "the client assertion's aud is neither this token endpoint nor the issuer"
            }
        }
        let now = options.clock.now()
        guard let exp = claims["exp"]?.numberValue else { return "the client assertion has no exp" }
        let expiry = Date(timeIntervalSince1970: exp)
        guard expiry > now else { return "the client assertion has expired" }
        guard expiry.timeIntervalSince(now) <= Self.maximumAssertionLifetime else { return "the client assertion is valid for too long" }
        for name in ["iat", "nbf"] {
            guard let value = claims[name] else { continue }
            guard let time = value.numberValue, time <= now.timeIntervalSince1970 + Self.assertionClockSkew else {
                return "the client assertion's \(name) is in the future"
            }
        }
        guard let jti = claims["jti"]?.stringValue, !jti.isEmpty else { return "the client assertion has no jti" }
        return withState { state in
            guard state.clientAssertionIDs[jti] == nil else { return "the client assertion was used before" }
            state.clientAssertionIDs[jti] = expiry
            return nil
        }
    }

    /// A client assertion split and its payload read, not yet verified.
    private struct ParsedAssertion {
        let jws: CompactJWS
        let claims: [String: JSONValue]
    }

    /// `raw` as a compact JWS with a JSON object payload; nil when it is not one.
    private static func parseAssertion(_ raw: String) -> ParsedAssertion? {
        let malformed = { SessionError(.invalidRequest, process: .authentication, message: $0) }
        guard let jws = try? CompactJWS(raw, malformed: malformed),
              let claims = try? CompactJWS.object(jws.payload, part: "payload", malformed: malformed) else { return nil }
        return ParsedAssertion(jws: jws, claims: claims)
    }

    /// The client ID and secret of `Basic base64(urlencode(id):urlencode(secret))`.
    private static func basicCredentials(_ header: String) -> (id: String, secret: String)? {
        guard header.count > 6, ASCII.equalIgnoringCase(header.prefix(6), "Basic "),
              let decoded = Data(base64Encoded: String(header.dropFirst(6))),
              let text = String(data: decoded, encoding: .utf8),
              let colon = text.firstIndex(of: ":") else { return nil }
        func decode(_ part: Substring) -> String? { part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
        guard let id = decode(text[..<colon]), let secret = decode(text[text.index(after: colon)...]) else { return nil }
        return (id, secret)
    }
}
