import Foundation

/// Reads DER elements with definite lengths (X.690 §10.1), refusing anything truncated or
/// oversized: the key formats the core reads (PKCS #1 public keys, PKCS #8 private keys) come
/// from outside and are checked before any crypto library sees them.
package struct DERReader {
    /// The DER tags the key formats use.
    package enum Tag {
        package static let integer: UInt8 = 0x02
        package static let octetString: UInt8 = 0x04
        package static let null: UInt8 = 0x05
        package static let objectIdentifier: UInt8 = 0x06
        package static let sequence: UInt8 = 0x30
    }

    private let bytes: [UInt8]
    private var offset = 0
    /// Makes the error for each way the input is refused.
    private let failure: (String) -> SessionError

    package init(_ bytes: some Collection<UInt8>, failure: @escaping (String) -> SessionError) {
        self.bytes = Array(bytes)
        self.failure = failure
    }

    /// True when every byte has been read.
    package var isAtEnd: Bool { offset == bytes.count }

    /// The tag of the next element; nil at the end.
    package var nextTag: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    /// The content of the next element, which must have `tag`.
    package mutating func element(tag: UInt8) throws -> [UInt8] {
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

    /// A non-negative INTEGER's magnitude, leading zero bytes removed.
    package mutating func unsignedInteger() throws -> Data {
        let value = try element(tag: Tag.integer)
        guard let first = value.first, first & 0x80 == 0 else { throw failure("a negative or empty integer") }
        return Data(value.drop { $0 == 0 })
    }
}

/// Writes the DER elements the core's key formats need.
package enum DERWriter {
    /// A definite length (X.690 §8.1.3).
    package static func length(_ count: Int) -> Data {
        if count < 0x80 { return Data([UInt8(count)]) }
        let bytes = withUnsafeBytes(of: count.bigEndian) { Data($0) }.drop { $0 == 0 }
        return Data([0x80 | UInt8(bytes.count)]) + bytes
    }

    /// An element of `tag` holding `content`.
    package static func element(_ tag: UInt8, _ content: some Collection<UInt8>) -> Data {
        Data([tag]) + length(content.count) + Data(content)
    }

    /// A non-negative INTEGER of the big-endian `magnitude`.
    package static func unsignedInteger(_ magnitude: Data) -> Data {
        var body = Data(magnitude.drop { $0 == 0 })
        // A set high bit would read as negative: DER adds one zero byte (X.690 §8.3).
        if body.isEmpty || body[body.startIndex] & 0x80 != 0 { body.insert(0, at: body.startIndex) }
        return element(DERReader.Tag.integer, body)
    }
}
