import Foundation

/// A compact-serialized JWS ID token, split and decoded but not yet trusted.
public struct IDToken: Sendable, Equatable {
    /// The token as received.
    let raw: String
    /// The JOSE header.
    public let header: [String: JSONValue]
    /// Every claim of the payload.
    public let claims: [String: JSONValue]
    /// `header.payload`, the bytes the signature covers.
    let signingInput: Data
    /// The decoded signature.
    let signature: Data

    /// Splits and decodes `raw` without checking it: use it for tokens ``SessionClient`` has
    /// validated already, such as ``SessionTokens/idToken``.
    /// - Throws: `idTokenMalformed` for anything that is not a JWS with JSON-object header and payload.
    public init(_ raw: String) throws {
        func malformed(_ why: String) -> SessionError {
            SessionError(.idTokenMalformed, process: .authentication, message: "ID token: \(why)")
        }
        let parts = raw.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw malformed("not three dot-separated parts (encrypted ID tokens are not supported)") }
        guard let headerData = Base64URL.decode(parts[0]), case .object(let header)? = JSONValue.parse(headerData) else {
            throw malformed("the header is not base64url JSON")
        }
        guard let payloadData = Base64URL.decode(parts[1]), case .object(let claims)? = JSONValue.parse(payloadData) else {
            throw malformed("the payload is not base64url JSON")
        }
        guard let signature = Base64URL.decode(parts[2]) else { throw malformed("the signature is not base64url") }
        self.raw = raw
        self.header = header
        self.claims = claims
        self.signingInput = Data("\(parts[0]).\(parts[1])".utf8)
        self.signature = signature
    }

    /// The `sub` claim.
    public var subject: String? { claims["sub"]?.stringValue }
    /// The `exp` claim.
    public var expiresAt: Date? { claims["exp"]?.numberValue.map(Date.init(timeIntervalSince1970:)) }
}
