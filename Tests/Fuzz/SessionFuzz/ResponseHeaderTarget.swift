import Foundation
@testable import SessionCore

/// The header lines of a response as libcurl hands them to CurlTransport, one per line of the
/// input: whatever arrives, the parts never hold more fields than their bound, and a refused line
/// ends the response (the transfer stops there). Slow inputs show as libFuzzer timeouts.
enum ResponseHeaderTarget {
    static func run(_ data: Data) {
        var parts = CurlResponseParts()
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            let raw = Array(line) + [UInt8(ascii: "\n")]
            guard raw.withUnsafeBytes({ parts.take(headerLine: $0) }) else { return }
            guard parts.headers.count <= CurlResponseParts.maximumFieldCount else { fatalError("more fields than the bound") }
        }
    }
}
