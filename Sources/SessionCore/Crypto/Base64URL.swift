import Foundation

/// base64url without padding (RFC 7515 §2, RFC 7636 §3). Works on bytes: Foundation's string
/// replacement goes through locale-aware comparison on Linux and dominated ID-token parsing.
package enum Base64URL {
    package static func encode(_ data: Data) -> String {
        let standard = data.base64EncodedData()
        return standard.withUnsafeBytes { encoded in
            String(unsafeUninitializedCapacity: encoded.count) { output in
                var count = 0
                for byte in encoded {
                    switch byte {
                    case UInt8(ascii: "+"): output[count] = UInt8(ascii: "-")
                    case UInt8(ascii: "/"): output[count] = UInt8(ascii: "_")
                    case UInt8(ascii: "="): continue
                    default: output[count] = byte
                    }
                    count += 1
                }
                return count
            }
        }
    }

    /// Decodes unpadded base64url; nil on any character outside the alphabet or a bad length.
    package static func decode(_ text: some StringProtocol) -> Data? {
        if let decoded = text.utf8.withContiguousStorageIfAvailable({ decode(bytes: $0) }) { return decoded }
        return Array(text.utf8).withUnsafeBufferPointer { decode(bytes: $0) }
    }

    /// Decodes unpadded base64url from its UTF-8 bytes; nil on any byte outside the alphabet or a
    /// bad length.
    package static func decode(bytes: UnsafeBufferPointer<UInt8>) -> Data? {
        guard bytes.count % 4 != 1 else { return nil }
        let paddedCount = (bytes.count + 3) / 4 * 4
        var standard = Data(count: paddedCount)
        let translated = standard.withUnsafeMutableBytes { (output: UnsafeMutableRawBufferPointer) -> Bool in
            for (offset, byte) in bytes.enumerated() {
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    output[offset] = byte
                case UInt8(ascii: "-"): output[offset] = UInt8(ascii: "+")
                case UInt8(ascii: "_"): output[offset] = UInt8(ascii: "/")
                default: return false
                }
            }
            for offset in bytes.count..<paddedCount { output[offset] = UInt8(ascii: "=") }
            return true
        }
        return translated ? Data(base64Encoded: standard) : nil
    }
}
