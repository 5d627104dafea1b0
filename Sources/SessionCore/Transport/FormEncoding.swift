import Foundation

/// `application/x-www-form-urlencoded` encoding as the WHATWG URL standard defines it, and the
/// reading of a form body a provider posts (a back-channel logout).
package enum FormEncoding {
    /// Every value of the parameter `name` in the form `body`, decoded; a pair that does not
    /// decode (invalid percent-encoding) is left out. Names compare exactly.
    package static func values(named name: String, in body: Data) -> [String] {
        func decode(_ text: Substring) -> String? { text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
        return String(decoding: body, as: UTF8.self).split(separator: "&").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, Exact.equal(decode(parts[0]), name) else { return nil }
            return decode(parts[1])
        }
    }

    package static func encode(_ parameters: [(String, String)]) -> String {
        parameters.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    /// `endpoint` with `parameters` appended to its query, keeping any query it already has (a
    /// provider may put one in an endpoint it publishes); nil when no URL can be made of it.
    package static func url(_ endpoint: URL, appending parameters: [(String, String)]) -> URL? {
        guard var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false) else { return nil }
        components.percentEncodedQuery = ((components.percentEncodedQuery.map { [$0] } ?? []) + [encode(parameters)]).joined(separator: "&")
        return components.url
    }

    /// Every UTF-8 byte but `A-Z a-z 0-9 - . _ *` as `%XX` (uppercase hex).
    package static func escape(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "*"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
