import Foundation

/// A DPoP proof (RFC 9449 §4): a JWT, signed with the session's ``DPoPKey``, that binds one
/// request — its method and URL, and the access token it carries — to the key.
package enum DPoPProof {
    /// The proof's media type, its `typ` header.
    package static let type = "dpop+jwt"

    /// The proof for `method` to `url` at `now`: `jti` from the CSPRNG, `htu` without query and
    /// fragment, `ath` the hash of `accessToken` when the request carries one (a resource request),
    /// and the server's `nonce` when it gave one.
    package static func make(key: DPoPKey, method: String, url: URL, accessToken: String? = nil, nonce: String? = nil,
                             now: Date) throws -> String {
        let jwk = key.publicJWK.map { "\"\($0.0)\":\"\($0.1)\"" }.joined(separator: ",")
        let header = "{\"alg\":\"ES256\",\"jwk\":{\(jwk)},\"typ\":\"\(type)\"}"
        // Written out rather than encoded: JSONEncoder was a third of the proof's cost.
        var claims: [(String, String)] = []
        if let accessToken { claims.append(("ath", JSONText.string(Base64URL.encode(try PlatformCrypto.sha256(Data(accessToken.utf8)))))) }
        claims.append(("htm", JSONText.string(method)))
        claims.append(("htu", JSONText.string(targetURI(url))))
        claims.append(("iat", String(Int(now.timeIntervalSince1970.rounded(.down)))))
        claims.append(("jti", JSONText.string(try RandomToken.generate())))
        if let nonce { claims.append(("nonce", JSONText.string(nonce))) }
        let payload = "{" + claims.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
        let signingInput = Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(Data(payload.utf8))
        return signingInput + "." + Base64URL.encode(try key.sign(Data(signingInput.utf8)))
    }

    /// The `htu` of a request to `url`: the URL without its query and fragment (RFC 9449 §4.2).
    package static func targetURI(_ url: URL) -> String {
        // In an absolute URI the first '?' or '#' starts the query or the fragment (RFC 3986 §3):
        // neither may appear unencoded before them. Cheaper than URLComponents on every request.
        let text = url.absoluteString
        guard let end = text.utf8.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) else { return text }
        return String(text[..<end])
    }
}
