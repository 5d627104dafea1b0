import Foundation

/// A compact-serialized JWS ID token, split and decoded but not yet trusted.
public struct IDToken: Sendable, Equatable {
    /// The token as received.
    let raw: String
    /// The signed parts.
    let jws: CompactJWS
    /// Every claim of the payload.
    public let claims: [String: JSONValue]

    /// The JOSE header.
    public var header: [String: JSONValue] { jws.header }

    /// Splits and decodes `raw` without checking it: use it for tokens ``SessionClient`` has
    /// validated already, such as ``SessionTokens/idToken``.
    /// - Throws: `idTokenMalformed` for anything that is not a JWS whose header and payload are
    ///   JSON objects read strictly (a member given twice, a byte-order mark, invalid UTF-8 are
    ///   refused).
    public init(_ raw: String) throws {
        let malformed = { (why: String) in SessionError(.idTokenMalformed, process: .authentication, message: "ID token: \(why)") }
        jws = try CompactJWS(raw, malformed: malformed)
        claims = try CompactJWS.object(jws.payload, part: "payload", malformed: malformed)
        self.raw = raw
    }

    /// The `sub` claim.
    public var subject: String? { claims["sub"]?.stringValue }
    /// The `exp` claim.
    public var expiresAt: Date? { claims["exp"]?.numberValue.map(Date.init(timeIntervalSince1970:)) }
}
