import Foundation

/// The DER form of PKCS #1's `RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent INTEGER }`
/// (RFC 8017 §A.1.1), the form Apple's Security framework imports and exports RSA public keys in.
/// Platform-neutral so that it is tested where the package is tested.
package enum RSAPublicKeyDER {
    /// The DER encoding of the key (`modulus`, `exponent`), both big-endian magnitudes.
    package static func encode(modulus: Data, exponent: Data) -> Data {
        sequence(integer(modulus) + integer(exponent))
    }

    /// The modulus and exponent of a DER `RSAPublicKey`, leading zero bytes removed.
    /// - Throws: ``SessionError`` `cryptoFailure` for anything but exactly one such structure.
    package static func decode(_ der: Data) throws -> (modulus: Data, exponent: Data) {
        var reader = Reader(bytes: [UInt8](der))
        let body = try reader.element(tag: 0x30)
        guard reader.isAtEnd else { throw failure("bytes follow the RSA public key") }
        var fields = Reader(bytes: body)
        let modulus = try fields.unsignedInteger()
        let exponent = try fields.unsignedInteger()
        guard fields.isAtEnd else { throw failure("the RSA public key has extra fields") }
        return (modulus, exponent)
    }

    private static func length(_ count: Int) -> Data {
        if count < 0x80 { return Data([UInt8(count)]) }
        let bytes = withUnsafeBytes(of: count.bigEndian) { Data($0) }.drop { $0 == 0 }
        return Data([0x80 | UInt8(bytes.count)]) + bytes
    }

    private static func integer(_ magnitude: Data) -> Data {
        var body = Data(magnitude.drop { $0 == 0 })
        // A set high bit would read as negative: DER adds one zero byte (X.690 §8.3).
        if body.isEmpty || body[body.startIndex] & 0x80 != 0 { body.insert(0, at: body.startIndex) }
        return Data([0x02]) + length(body.count) + body
    }

    private static func sequence(_ content: Data) -> Data {
        Data([0x30]) + length(content.count) + content
    }

    private static func failure(_ why: String) -> SessionError {
        SessionError(.cryptoFailure, process: .authentication, message: why)
    }

    /// Reads DER elements with definite lengths, refusing anything truncated or oversized.
    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        mutating func element(tag: UInt8) throws -> [UInt8] {
            guard offset < bytes.count, bytes[offset] == tag else { throw failure("unexpected DER element") }
            offset += 1
            guard offset < bytes.count else { throw failure("the DER element is truncated") }
            var count = Int(bytes[offset])
            offset += 1
            if count & 0x80 != 0 {
                let width = count & 0x7F
                // Four length bytes already allow 4 GiB; no key comes near that.
                guard (1...4).contains(width), bytes.count - offset >= width else { throw failure("the DER length is invalid") }
                count = bytes[offset..<offset + width].reduce(0) { $0 << 8 | Int($1) }
                offset += width
            }
            guard bytes.count - offset >= count else { throw failure("the DER element is truncated") }
            defer { offset += count }
            return Array(bytes[offset..<offset + count])
        }

        mutating func unsignedInteger() throws -> Data {
            let value = try element(tag: 0x02)
            guard let first = value.first, first & 0x80 == 0 else { throw failure("the RSA key has a negative or empty integer") }
            return Data(value.drop { $0 == 0 })
        }
    }
}
