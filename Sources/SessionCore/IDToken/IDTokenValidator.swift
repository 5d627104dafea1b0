import Foundation

/// The checks of OpenID Connect Core §3.1.3.7 (and §12.2 after a refresh) on a decoded ID token.
/// Signature keys are supplied by the caller, which owns JWKS fetching and caching.
struct IDTokenValidator: Sendable {
    /// The issuer as configured; `iss` must equal it exactly.
    let issuer: String
    let clientID: String
    let clock: SessionClock
    /// The tolerated clock difference for `exp`, `iat` and `nbf`.
    let allowedSkew: TimeInterval
    /// What the token is, as errors name it.
    var kind = "ID token"

    /// Where the signature check gets the provider's keys: `reload` false for the cached set (or
    /// a first fetch), true for a fresher one after the token named a key the set lacks (the
    /// current set when no fetch may be made yet); nil when there is none.
    typealias KeySource = @Sendable (_ reload: Bool) async throws -> JSONWebKeySet?

    private func error(_ code: SessionError.Code, _ why: String) -> SessionError {
        SessionError(code, process: .authentication, message: "\(kind): \(why)")
    }

    /// Checks the JWS header and signature: the algorithm is one we verify, no `crit` extension
    /// is asked for, one key of the provider's set is chosen by `kid` (or is the only one that
    /// fits), and it verifies the signature.
    func verifySignature(_ jws: CompactJWS, keys: KeySource) async throws {
        let (algorithm, kid) = try algorithmAndKeyID(of: jws)
        var key = try choose(kid: kid, algorithm: algorithm, in: try await keys(false))
        if key == nil, let fresher = try await keys(true) {
            key = fresher.key(kid: kid, algorithm: algorithm)
        }
        try verify(jws, algorithm: algorithm, kid: kid, key: key)
    }

    /// Checks an unsigned JWS (`alg` `none`) from the token endpoint at `source`, for a client
    /// registered for unsigned ID tokens: `none` exactly, no `crit`, an empty signature, and an
    /// https or loopback endpoint.
    func checkUnsigned(_ jws: CompactJWS, from source: URL) throws {
        let name = try algorithmName(of: jws)
        guard Exact.equal(name, "none") else {
            throw error(.idTokenUnsupportedAlgorithm, "algorithm \(StrictJSON.printable(name)) is not the registered 'none'")
        }
        guard jws.signature.isEmpty else { throw error(.idTokenSignatureInvalid, "an unsigned token carries a signature") }
        guard URLRules.isSecureEndpoint(source) else {
            throw error(.idTokenUnsupportedAlgorithm, "an unsigned ID token is accepted only from an https or loopback token endpoint")
        }
    }

    /// ``verifySignature(_:keys:)`` against `keySet` alone, without reloading it.
    func verifySignature(_ jws: CompactJWS, keySet: JSONWebKeySet) throws {
        let (algorithm, kid) = try algorithmAndKeyID(of: jws)
        try verify(jws, algorithm: algorithm, kid: kid, key: try choose(kid: kid, algorithm: algorithm, in: keySet))
    }

    private func algorithmAndKeyID(of jws: CompactJWS) throws -> (JWSAlgorithm, String?) {
        let algorithm = try algorithm(of: jws)
        switch jws.header["kid"] {
        case nil: return (algorithm, nil)
        case .string(let value)?: return (algorithm, value)
        default: throw error(.idTokenMalformed, "the header's 'kid' is not a string")
        }
    }

    /// The key for the header in `keySet`; a header without `kid` facing several fitting keys is
    /// refused at once, since no reload can make the choice unambiguous.
    private func choose(kid: String?, algorithm: JWSAlgorithm, in keySet: JSONWebKeySet?) throws -> JSONWebKey? {
        let key = keySet?.key(kid: kid, algorithm: algorithm)
        if key == nil, kid == nil, let fitting = keySet?.candidates(for: algorithm).count, fitting > 1 {
            throw error(.idTokenUnknownKey, "the token names no key ('kid') and the provider has \(fitting) \(algorithm.rawValue) keys that fit")
        }
        return key
    }

    private func verify(_ jws: CompactJWS, algorithm: JWSAlgorithm, kid: String?, key: JSONWebKey?) throws {
        guard let key else {
            let named = kid == nil ? "the token names no key and the provider has none that fits"
                : "no \(algorithm.rawValue) key of the provider has the token's 'kid' (or several have it)"
            throw error(.idTokenUnknownKey, named)
        }
        let valid: Bool
        do {
            valid = try PlatformCrypto.verify(algorithm, key: key, message: jws.signingInput, signature: jws.signature)
        } catch let failure as SessionError {
            throw error(.idTokenSignatureInvalid, "the provider's key cannot be used: \(failure.message)")
        }
        guard valid else { throw error(.idTokenSignatureInvalid, "the signature does not verify") }
    }

    /// The header's algorithm, when it is one we verify and no extension is marked critical.
    /// `none`, HMAC and everything else is refused; so is any `crit` (RFC 7515 §4.1.11), since
    /// no extension is implemented.
    func algorithm(of jws: CompactJWS) throws -> JWSAlgorithm {
        let name = try algorithmName(of: jws)
        guard let algorithm = JWSAlgorithm.allCases.first(where: { Exact.equal($0.rawValue, name) }) else {
            throw error(.idTokenUnsupportedAlgorithm, "algorithm \(StrictJSON.printable(name)) is not accepted (RS256 or ES256)")
        }
        return algorithm
    }

    /// The header's `alg`, once no extension is marked critical (RFC 7515 §4.1.11: none is
    /// implemented, so any `crit` is refused).
    private func algorithmName(of jws: CompactJWS) throws -> String {
        guard jws.header["crit"] == nil else {
            throw error(.idTokenMalformed, "the header marks extensions critical ('crit'), and none is supported")
        }
        guard let value = jws.header["alg"] else { throw error(.idTokenUnsupportedAlgorithm, "the header has no 'alg'") }
        guard let name = value.stringValue else { throw error(.idTokenMalformed, "the header's 'alg' is not a string") }
        return name
    }

    /// Checks the claims. `expectedNonce` is the authorization request's nonce (nil after a
    /// refresh); `expectedSubject` is the session's subject (after a refresh). Every claim read
    /// must have its registered JSON type; one that does not is `idTokenMalformed`.
    func validateClaims(_ token: IDToken, expectedNonce: String?, expectedSubject: String?, maxAge: Int? = nil) throws {
        let claims = ClaimReader(claims: token.claims, malformed: { self.error(.idTokenMalformed, $0) })
        guard Exact.equal(try claims.string("iss"), issuer) else { throw error(.idTokenIssuerMismatch, "'iss' is not the configured issuer") }

        let audiences = try claims.audiences()
        guard Exact.contains(audiences, clientID) else { throw error(.idTokenAudienceMismatch, "'aud' does not contain the client ID") }
        let azp = try claims.string("azp")
        if audiences.count > 1, azp == nil {
            throw error(.idTokenAuthorizedPartyMismatch, "several audiences but no 'azp'")
        }
        if let azp, !Exact.equal(azp, clientID) { throw error(.idTokenAuthorizedPartyMismatch, "'azp' is not the client ID") }

        let now = clock.now().timeIntervalSince1970
        guard let exp = try claims.number("exp") else { throw error(.idTokenMalformed, "'exp' is missing") }
        guard now < exp + allowedSkew else { throw error(.idTokenExpired, "the token has expired") }
        guard let iat = try claims.number("iat") else { throw error(.idTokenMalformed, "'iat' is missing") }
        guard iat <= now + allowedSkew else { throw error(.idTokenIssuedInFuture, "'iat' is in the future") }
        if let nbf = try claims.number("nbf"), nbf > now + allowedSkew {
            throw error(.idTokenNotYetValid, "'nbf' is in the future")
        }

        guard let subject = try claims.string("sub"), !subject.isEmpty else { throw error(.idTokenMalformed, "'sub' is missing") }
        if let expectedSubject, !Exact.equal(subject, expectedSubject) {
            throw error(.idTokenSubjectMismatch, "'sub' differs from the session's subject")
        }
        if let expectedNonce, !Exact.equal(try claims.string("nonce"), expectedNonce) {
            throw error(.idTokenNonceMismatch, "'nonce' does not match the authorization request")
        }
        // OIDC Core §3.1.2.1, §3.1.3.7: a request with max_age gets an auth_time to check it by.
        if let maxAge {
            guard let authTime = try claims.number("auth_time") else { throw error(.idTokenMalformed, "'auth_time' is missing, though max_age was asked for") }
            guard now - authTime <= Double(maxAge) + allowedSkew else {
                throw error(.insufficientUserAuthentication, "'auth_time' is older than the max_age asked for")
            }
        }
    }
}

/// Typed reads of registered claims (RFC 7519 §4.1, OpenID Connect Core §2): absent is nil; a
/// claim of another JSON type is refused, never read as absent.
private struct ClaimReader {
    let claims: [String: JSONValue]
    let malformed: (String) -> SessionError

    func string(_ name: String) throws -> String? {
        guard let value = claims[name] else { return nil }
        guard let text = value.stringValue else { throw malformed("'\(name)' is not a string") }
        return text
    }

    func number(_ name: String) throws -> Double? {
        guard let value = claims[name] else { return nil }
        guard let number = value.numberValue else { throw malformed("'\(name)' is not a number") }
        return number
    }

    /// `aud`: one string, or an array of strings.
    func audiences() throws -> [String] {
        switch claims["aud"] {
        case nil: return []
        case .string(let audience)?: return [audience]
        case .array(let values)?:
            let audiences = values.compactMap(\.stringValue)
            guard audiences.count == values.count else { throw malformed("'aud' has an entry that is not a string") }
            return audiences
        default: throw malformed("'aud' is neither a string nor an array of strings")
        }
    }
}
