import Foundation

/// A JWS in compact serialization (RFC 7515 §7.1), split and decoded but not yet trusted: the
/// form ID tokens take. Its header is read strictly (``StrictJSON``).
package struct CompactJWS: Sendable, Equatable {
    /// The JOSE header.
    package let header: [String: JSONValue]
    /// The payload bytes.
    package let payload: Data
    /// `header.payload`, the bytes the signature covers.
    package let signingInput: Data
    /// The decoded signature.
    package let signature: Data

    /// A JWS from its parts, for tests that verify signatures over arbitrary bytes.
    init(header: [String: JSONValue], signingInput: Data, signature: Data) {
        self.header = header
        self.payload = Data()
        self.signingInput = signingInput
        self.signature = signature
    }

    /// Splits `raw`; `malformed` makes the error for each way it can be refused.
    package init(_ raw: String, malformed: (String) -> SessionError) throws {
        // Split on the UTF-8 bytes: walking the token as Characters (String.split) dominated
        // checking a DPoP proof. '.' is ASCII, so its byte indices are the String's own.
        let bytes = raw.utf8
        let dots = bytes.indices.filter { bytes[$0] == UInt8(ascii: ".") }
        guard dots.count == 2 else { throw malformed("not three dot-separated parts (encrypted ID tokens are not supported)") }
        guard let headerData = Base64URL.decode(raw[..<dots[0]]) else { throw malformed("the header is not base64url") }
        header = try Self.object(headerData, part: "header", malformed: malformed)
        guard let payload = Base64URL.decode(raw[bytes.index(after: dots[0])..<dots[1]]) else { throw malformed("the payload is not base64url") }
        guard let signature = Base64URL.decode(raw[bytes.index(after: dots[1])...]) else { throw malformed("the signature is not base64url") }
        self.payload = payload
        self.signature = signature
        signingInput = Data(bytes[..<dots[1]])
    }

    /// `data` as a strictly read JSON object.
    package static func object(_ data: Data, part: String, malformed: (String) -> SessionError) throws -> [String: JSONValue] {
        do {
            return try StrictJSON.object(data)
        } catch {
            throw malformed("the \(part) is not an acceptable JSON object (\(error))")
        }
    }
}
