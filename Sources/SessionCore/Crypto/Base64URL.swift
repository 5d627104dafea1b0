import Foundation

/// base64url without padding (RFC 7515 §2, RFC 7636 §3). Works on bytes: Foundation's string
/// replacement goes through locale-aware comparison on Linux and dominated ID-token parsing.
package enum Base64URL {
    package static func encode(_ data: Data) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity((data.count * 4 + 2) / 3)
        for byte in data.base64EncodedData() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): bytes.append(UInt8(ascii: "_"))
            case UInt8(ascii: "="): continue
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Decodes unpadded base64url; nil on any character outside the alphabet or a bad length.
    package static func decode(_ text: some StringProtocol) -> Data? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 2)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                bytes.append(byte)
            case UInt8(ascii: "-"): bytes.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): bytes.append(UInt8(ascii: "/"))
            default: return nil
            }
        }
        guard bytes.count % 4 != 1 else { return nil }
        bytes += repeatElement(UInt8(ascii: "="), count: (4 - bytes.count % 4) % 4)
        return Data(base64Encoded: Data(bytes))
    }
}
