import Foundation
import SessionCore

/// A private signing key made at start, for test providers that issue ID tokens: RS256 (RSA
/// 2048) or ES256 (P-256), made by the platform's crypto backend. Publishes its public half as a JWK.
public final class SigningKey: Sendable {
    /// The algorithm this key signs with.
    public let algorithm: JWSAlgorithm
    /// The key ID published in the JWK and the token header.
    public let keyID: String
    /// The public half, as published in a JWK Set.
    public let publicJWK: JSONWebKey
    private let key: any PrivateSigningKey & PKCS8Exportable

    /// Generates a fresh key.
    public init(algorithm: JWSAlgorithm, keyID: String = UUID().uuidString) throws {
        self.algorithm = algorithm
        self.keyID = keyID
        key = try PlatformPrivateKey(generating: algorithm)
        switch try key.publicKey() {
        case .rsa(let modulus, let exponent):
            publicJWK = JSONWebKey(kty: "RSA", kid: keyID, alg: algorithm.rawValue, use: "sig",
                                   n: Self.base64URL(modulus), e: Self.base64URL(exponent))
        case .p256(let x, let y):
            publicJWK = JSONWebKey(kty: "EC", kid: keyID, alg: algorithm.rawValue, use: "sig", crv: "P-256",
                                   x: Self.base64URL(x), y: Self.base64URL(y))
        }
    }

    /// The JWK Set document `{"keys": [...]}` for `keys`.
    public static func jwksDocument(_ keys: [JSONWebKey]) -> Data {
        let entries: [[String: String]] = keys.map { key in
            var entry = ["kty": key.kty]
            for (name, value) in [("kid", key.kid), ("alg", key.alg), ("use", key.use), ("n", key.n), ("e", key.e),
                                  ("crv", key.crv), ("x", key.x), ("y", key.y)] {
                if let value { entry[name] = value }
            }
            return entry
        }
        return (try? JSONSerialization.data(withJSONObject: ["keys": entries], options: [.sortedKeys])) ?? Data()
    }

    /// A compact JWS of `claims` with this key. `header` members override the defaults
    /// (`alg`, `kid`, `typ`), which lets tests forge bad headers.
    public func sign(claims: [String: Any], header: [String: Any] = [:]) throws -> String {
        var fullHeader: [String: Any] = ["alg": algorithm.rawValue, "kid": keyID, "typ": "JWT"]
        fullHeader.merge(header) { _, new in new }
        let headerPart = Self.base64URL(try JSONSerialization.data(withJSONObject: fullHeader, options: [.sortedKeys]))
        let payloadPart = Self.base64URL(try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]))
        let input = Data("\(headerPart).\(payloadPart)".utf8)
        return "\(headerPart).\(payloadPart).\(Self.base64URL(try signature(of: input)))"
    }

    /// The raw JWS signature of `input`: PKCS #1 v1.5 for RS256, r || s for ES256.
    public func signature(of input: Data) throws -> Data {
        try key.sign(input)
    }

    /// The private key as an unencrypted PKCS #8 PEM block, the form a client's key file holds:
    /// for tests of clients that authenticate with `private_key_jwt`.
    public func pkcs8PEM() throws -> String {
        let body = try key.pkcs8DER().base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        return "-----BEGIN PRIVATE KEY-----\n\(body)\n-----END PRIVATE KEY-----\n"
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
