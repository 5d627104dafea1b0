import Foundation

/// `application/x-www-form-urlencoded` decoding.
enum FormDecoding {
    static func decode(_ text: String) -> [(name: String, value: String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func unescape(_ part: Substring) -> String {
                String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(part)
            }
            return (unescape(parts[0]), parts.count > 1 ? unescape(parts[1]) : "")
        }
    }
}
