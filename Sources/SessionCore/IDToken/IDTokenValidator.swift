import Foundation

/// The checks of OpenID Connect Core §3.1.3.7 (and §12.2 after a refresh) on a decoded ID token.
/// Signature keys are supplied by the caller, which owns JWKS fetching and caching.
struct IDTokenValidator: Sendable {
    /// The issuer as configured; `iss` must equal it exactly.
    let issuer: String
    let clientID: String
    let clock: SessionClock
    /// The tolerated clock difference for `exp` and `iat`.
    let allowedSkew: TimeInterval

    private func error(_ code: SessionError.Code, _ why: String) -> SessionError {
        SessionError(code, process: .authentication, message: "ID token: \(why)")
    }

    /// The token's algorithm, when it is one we verify. `none`, HMAC and everything else is refused.
    func algorithm(of token: IDToken) throws -> JWSAlgorithm {
        let name = token.header["alg"]?.stringValue ?? ""
        guard let algorithm = JWSAlgorithm(rawValue: name) else {
            throw error(.idTokenUnsupportedAlgorithm, "algorithm '\(name.isEmpty ? "missing" : name)' is not accepted (RS256 or ES256)")
        }
        return algorithm
    }

    /// The header's `kid`, if any.
    func keyID(of token: IDToken) -> String? { token.header["kid"]?.stringValue }

    /// Checks the signature with `key`.
    func verifySignature(_ token: IDToken, algorithm: JWSAlgorithm, key: JSONWebKey) throws {
        let valid: Bool
        do {
            valid = try PlatformCrypto.verify(algorithm, key: key, message: token.signingInput, signature: token.signature)
        } catch {
            throw self.error(.idTokenSignatureInvalid, "the provider's key cannot verify \(algorithm.rawValue) signatures")
        }
        guard valid else { throw self.error(.idTokenSignatureInvalid, "the signature does not verify") }
    }

    /// Checks the claims. `expectedNonce` is the authorization request's nonce (nil after a
    /// refresh); `expectedSubject` is the session's subject (after a refresh).
    func validateClaims(_ token: IDToken, expectedNonce: String?, expectedSubject: String?) throws {
        let claims = token.claims
        guard claims["iss"]?.stringValue == issuer else { throw error(.idTokenIssuerMismatch, "'iss' is not the configured issuer") }

        let audiences: [String]
        switch claims["aud"] {
        case .string(let audience)?: audiences = [audience]
        case .array(let values)?: audiences = values.compactMap(\.stringValue)
        default: audiences = []
        }
        guard audiences.contains(clientID) else { throw error(.idTokenAudienceMismatch, "'aud' does not contain the client ID") }
        let azp = claims["azp"]?.stringValue
        if audiences.count > 1, azp == nil {
            throw error(.idTokenAuthorizedPartyMismatch, "several audiences but no 'azp'")
        }
        if let azp, azp != clientID { throw error(.idTokenAuthorizedPartyMismatch, "'azp' is not the client ID") }

        let now = clock.now().timeIntervalSince1970
        guard let exp = claims["exp"]?.numberValue else { throw error(.idTokenMalformed, "'exp' is missing") }
        guard now < exp + allowedSkew else { throw error(.idTokenExpired, "the token has expired") }
        guard let iat = claims["iat"]?.numberValue else { throw error(.idTokenMalformed, "'iat' is missing") }
        guard iat <= now + allowedSkew else { throw error(.idTokenIssuedInFuture, "'iat' is in the future") }

        guard let subject = token.subject, !subject.isEmpty else { throw error(.idTokenMalformed, "'sub' is missing") }
        if let expectedSubject, subject != expectedSubject {
            throw error(.idTokenSubjectMismatch, "'sub' differs from the session's subject")
        }
        if let expectedNonce, claims["nonce"]?.stringValue != expectedNonce {
            throw error(.idTokenNonceMismatch, "'nonce' does not match the authorization request")
        }
    }
}
