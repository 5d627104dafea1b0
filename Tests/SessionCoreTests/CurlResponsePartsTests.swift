#if os(Linux)
@testable import SessionCore
import XCTest

/// The header parser's bounds hold across the responses of one transfer.
final class CurlResponsePartsTests: XCTestCase {
    func testInterimResponsesWithoutEndDoNotResetTheHeaderBudget() {
        var parts = CurlResponseParts()
        var taken = 0
        // 100 Continue after 100 Continue, each starting a new response: the transfer's bytes still count.
        for _ in 0..<100_000 {
            let accepted = Array("HTTP/1.1 100 Continue\r\n".utf8).withUnsafeBytes { parts.take(headerLine: $0) }
                && Array("\r\n".utf8).withUnsafeBytes { parts.take(headerLine: $0) }
            guard accepted else { break }
            taken += 1
        }
        XCTAssertLessThan(taken, 100_000, "an endless run of interim answers ends the transfer")
        XCTAssertLessThanOrEqual(taken * 25, CurlResponseParts.maximumHeaderBytes)
    }
}
#endif
