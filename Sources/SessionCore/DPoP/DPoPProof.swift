import Foundation

/// A DPoP proof (RFC 9449 §4): a JWT, signed with the session's ``DPoPKey``, that binds one
/// request — its method and URL, and the access token it carries — to the key.
package enum DPoPProof {
    /// The proof's media type, its `typ` header.
    package static let type = "dpop+jwt"

    private struct Claims: Encodable {
        let jti: String
        let htm: String
        let htu: String
        let iat: Int
        let ath: String?
        let nonce: String?
    }

    /// The proof for `method` to `url` at `now`: `jti` from the CSPRNG, `htu` without query and
    /// fragment, `ath` the hash of `accessToken` when the request carries one (a resource request),
    /// and the server's `nonce` when it gave one.
    package static func make(key: DPoPKey, method: String, url: URL, accessToken: String? = nil, nonce: String? = nil,
                             now: Date) throws -> String {
        let jwk = key.publicJWK.map { "\"\($0.0)\":\"\($0.1)\"" }.joined(separator: ",")
        let header = "{\"alg\":\"ES256\",\"jwk\":{\(jwk)},\"typ\":\"\(type)\"}"
        let claims = Claims(jti: try RandomToken.generate(), htm: method, htu: targetURI(url),
                            iat: Int(now.timeIntervalSince1970.rounded(.down)),
                            ath: try accessToken.map { Base64URL.encode(try PlatformCrypto.sha256(Data($0.utf8))) }, nonce: nonce)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let signingInput = Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(try encoder.encode(claims))
        return signingInput + "." + Base64URL.encode(try key.sign(Data(signingInput.utf8)))
    }

    /// The `htu` of a request to `url`: the URL without its query and fragment (RFC 9449 §4.2).
    package static func targetURI(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
        components.query = nil
        components.fragment = nil
        return components.string ?? url.absoluteString
    }
}
