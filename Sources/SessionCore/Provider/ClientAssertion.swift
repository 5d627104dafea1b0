import Foundation

/// The client assertion of `private_key_jwt` (RFC 7523 §2.2 and §3, OpenID Connect Core §9): a JWT
/// the client signs with its ``ClientSigningKey``, made afresh for each request.
struct ClientAssertion {
    /// The `client_assertion_type` value naming a JWT bearer assertion (RFC 7523 §2.2).
    static let type = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    /// How long an assertion is valid: long enough for one request and modest clock skew,
    /// short enough that a captured one is soon useless.
    static let lifetime: TimeInterval = 120

    private struct Header: Encodable {
        let alg: String
        let kid: String?
        let typ = "JWT"
    }

    private struct Claims: Encodable {
        let iss: String
        let sub: String
        let aud: String
        let jti: String
        let iat: Int
        let exp: Int
    }

    /// A compact JWS in which `clientID` asserts itself to `audience` (the token endpoint's URL,
    /// as OpenID Connect Core §9 says, or the issuer, as FAPI 2.0 does) at `now`, with a random
    /// `jti` the provider can use to refuse a replay.
    static func make(clientID: String, audience: String, key: ClientSigningKey, now: Date) throws -> String {
        let issuedAt = Int(now.timeIntervalSince1970.rounded(.down))
        let claims = Claims(iss: clientID, sub: clientID, aud: audience, jti: try RandomToken.generate(),
                            iat: issuedAt, exp: issuedAt + Int(lifetime))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let signingInput = Base64URL.encode(try encoder.encode(Header(alg: key.algorithm.rawValue, kid: key.keyID)))
            + "." + Base64URL.encode(try encoder.encode(claims))
        return signingInput + "." + Base64URL.encode(try key.sign(Data(signingInput.utf8)))
    }
}
