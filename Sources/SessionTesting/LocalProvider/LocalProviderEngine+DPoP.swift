import Foundation
import LoopbackHTTP
import SessionCore

/// DPoP (RFC 9449) at the provider: proofs checked as strictly as the RFC allows (one header,
/// signature, `typ`, `alg`, public `jwk`, `jti` once, `iat` skew, `htm`/`htu`, `ath`, the nonce),
/// their refusals in the RFC's words, and the nonce sent with every answer that needs one.
extension LocalProviderEngine {
    /// The thumbprint of the key that proved `request` to `endpoint` (for a resource request,
    /// carrying `accessToken`); nil without a proof, or when the provider does not offer DPoP and
    /// so ignores the header.
    func dpopProof(_ request: HTTPServerRequest, at endpoint: Endpoint, accessToken: String? = nil) -> Checked<String?> {
        guard options.offersDPoP else { return .passed(nil) }
        let proofs = request.headers.filter { ASCII.equalIgnoringCase($0.name, "DPoP") }
        guard let proof = proofs.first else { return .passed(nil) }
        let resource = accessToken != nil
        guard proofs.count == 1 else { return .refused(dpopRefusal(.invalid("more than one DPoP header"), resource: resource)) }
        // The path asked for: the endpoint's, or a protected resource's below `/api`.
        guard let url = URL(string: issuer + request.path) else { return .refused(.text("No such endpoint", status: 500)) }
        let nonce = options.requiresDPoPNonce ? withState { $0.dpopNonce } : nil
        do {
            let jkt = try proofCheck.verify(proof.value, method: request.method, url: url, accessToken: accessToken, nonce: nonce,
                                            now: options.clock.now())
            if options.requiresDPoPNonce, options.rotatesDPoPNonceWithEveryAnswer {
                withState { $0.dpopNonce = Self.randomValue("dn") }
            }
            return .passed(jkt)
        } catch {
            return .refused(dpopRefusal(error, resource: resource))
        }
    }

    /// The answer to a refused proof: at the token endpoint an OAuth error (400), at a resource
    /// a 401 with a `DPoP` challenge (RFC 9449 §7.1); with the nonce when one is required.
    func dpopRefusal(_ refusal: DPoPProofCheck.Refusal, resource: Bool) -> HTTPServerResponse {
        let (error, description) = switch refusal {
        case .invalid(let why): ("invalid_dpop_proof", "the DPoP proof is refused: \(why)")
        case .useNonce: ("use_dpop_nonce", "the DPoP proof must carry the server's nonce")
        }
        var response = resource ? Self.dpopChallenge(error, description) : Self.oauthError(error, description)
        response.headers += nonceHeaders
        return response
    }

    /// A resource server's 401 with a `DPoP` challenge naming `error`.
    static func dpopChallenge(_ error: String, _ description: String) -> HTTPServerResponse {
        HTTPServerResponse(status: 401, headers: [
            ("WWW-Authenticate", #"DPoP algs="ES256", error="\#(error)", error_description="\#(description)""#),
        ])
    }

    /// `DPoP-Nonce` with the current nonce, when proofs must carry one.
    var nonceHeaders: [(name: String, value: String)] {
        options.requiresDPoPNonce ? [(DPoPNonce.header, withState { $0.dpopNonce })] : []
    }

    /// True for a `dpop_jkt` value: a SHA-256 JWK thumbprint, base64url (43 characters).
    static func isThumbprint(_ value: String) -> Bool {
        value.utf8.count == 43 && value.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") }
    }

    /// The token a resource request presents and how (RFC 6750 §2.1 `Bearer`, RFC 9449 §7.1 `DPoP`).
    static func presentedToken(_ request: HTTPServerRequest) -> (scheme: String, token: String)? {
        guard let header = request.header("Authorization") else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        for scheme in ["Bearer", "DPoP"] where ASCII.equalIgnoringCase(parts[0], scheme) {
            return (scheme, String(parts[1]).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}
