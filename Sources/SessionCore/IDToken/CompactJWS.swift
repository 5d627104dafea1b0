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
        // Read as UTF-8 bytes in place: walking the token as Characters (String.split) dominated
        // checking a DPoP proof.
        var raw = raw
        raw.makeContiguousUTF8()
        let split = raw.utf8.withContiguousStorageIfAvailable { bytes -> Result<(header: Data, payload: Data, signature: Data, signingInput: Data), SessionError> in
            let dots = bytes.indices.filter { bytes[$0] == UInt8(ascii: ".") }
            guard dots.count == 2 else { return .failure(malformed("not three dot-separated parts (encrypted ID tokens are not supported)")) }
            func part(_ range: Range<Int>) -> Data? { Base64URL.decode(bytes: UnsafeBufferPointer(rebasing: bytes[range])) }
            guard let header = part(0..<dots[0]) else { return .failure(malformed("the header is not base64url")) }
            guard let payload = part(dots[0] + 1..<dots[1]) else { return .failure(malformed("the payload is not base64url")) }
            guard let signature = part(dots[1] + 1..<bytes.count) else { return .failure(malformed("the signature is not base64url")) }
            return .success((header, payload, signature, Data(UnsafeBufferPointer(rebasing: bytes[0..<dots[1]]))))
        }
        guard let split else { throw malformed("not readable as UTF-8") }
        let parts = try split.get()
        header = try Self.object(parts.header, part: "header", malformed: malformed)
        payload = parts.payload
        signature = parts.signature
        signingInput = parts.signingInput
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
