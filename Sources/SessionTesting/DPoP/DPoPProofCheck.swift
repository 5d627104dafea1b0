import Foundation
import SessionCore

/// How a server checks a DPoP proof (RFC 9449 §4.3), as strictly as the specification allows:
/// the checks LocalProvider makes at its token endpoint and its resource endpoints.
package struct DPoPProofCheck: Sendable {
    /// Why a proof was refused.
    package enum Refusal: Error, Equatable {
        /// The proof is not acceptable (`invalid_dpop_proof`); the reason names the check.
        case invalid(String)
        /// The proof lacks the server's current nonce, or has another (`use_dpop_nonce`).
        case useNonce
    }

    /// How far `iat` may be from the server's clock, either way, in seconds.
    package var allowedSkew: TimeInterval = 60
    private let seen = Locked(ReplayWindow())

    package init() {}

    /// Checks `proof` for a request of `method` to `url` at `now`, carrying `accessToken` (a
    /// resource request) or none (the token endpoint), and returns the thumbprint of its key.
    /// - Parameter nonce: the nonce the proof must carry; nil when the server asks for none.
    package func verify(_ proof: String, method: String, url: URL, accessToken: String? = nil, nonce: String? = nil,
                        now: Date) throws(Refusal) -> String {
        guard let jws = try? CompactJWS(proof, malformed: { SessionError(.invalidResponse, process: .authentication, message: $0) }) else {
            throw .invalid("not a compact JWS")
        }
        guard Exact.equal(jws.header["typ"]?.stringValue, DPoPProof.type) else { throw .invalid("typ is not dpop+jwt") }
        guard Exact.equal(jws.header["alg"]?.stringValue, "ES256") else { throw .invalid("alg is not ES256") }
        guard let jwk = jws.header["jwk"]?.objectValue, Exact.equal(jwk["kty"]?.stringValue, "EC"), Exact.equal(jwk["crv"]?.stringValue, "P-256"),
              let x = jwk["x"]?.stringValue, let y = jwk["y"]?.stringValue else { throw .invalid("jwk is not a P-256 public key") }
        guard jwk["d"] == nil else { throw .invalid("jwk holds a private key") }
        let key = JSONWebKey(kty: "EC", crv: "P-256", x: x, y: y)
        guard (try? PlatformCrypto.verify(.es256, key: key, message: jws.signingInput, signature: jws.signature)) == true else {
            throw .invalid("the signature does not verify with jwk")
        }
        guard case .object(let claims)? = JSONValue.parse(jws.payload) else { throw .invalid("the claims are not a JSON object") }
        guard let jti = claims["jti"]?.stringValue, !jti.isEmpty, jti.utf8.count <= 256 else { throw .invalid("jti is missing") }
        guard Exact.equal(claims["htm"]?.stringValue, method) else { throw .invalid("htm is not \(method)") }
        guard Exact.equal(claims["htu"]?.stringValue, DPoPProof.targetURI(url)) else { throw .invalid("htu is not \(DPoPProof.targetURI(url))") }
        guard let iat = claims["iat"]?.numberValue, abs(iat - now.timeIntervalSince1970) <= allowedSkew else {
            throw .invalid("iat is missing or too far from now")
        }
        if let accessToken {
            let expected = try? Base64URL.encode(PlatformCrypto.sha256(Data(accessToken.utf8)))
            guard Exact.equal(claims["ath"]?.stringValue, expected) else { throw .invalid("ath is not the access token's hash") }
        }
        if let nonce, !Exact.equal(claims["nonce"]?.stringValue, nonce) { throw .useNonce }
        // A jti is accepted once within the window its iat may be in.
        let fresh = seen.withLock { $0.admit(jti, at: now, window: 2 * allowedSkew) }
        guard fresh else { throw .invalid("jti was used before") }
        guard let thumbprint = try? DPoPKey.thumbprint(x: x, y: y) else { throw .invalid("cannot hash jwk") }
        return thumbprint
    }
}
