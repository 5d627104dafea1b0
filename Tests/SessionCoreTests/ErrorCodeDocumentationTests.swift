import Foundation
import SessionCore
import XCTest

final class ErrorCodeDocumentationTests: XCTestCase {
    /// The DocC "Error codes" article must name every code, so users can look up any error they get.
    func testEveryErrorCodeIsDocumented() throws {
        let article = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/SessionCore/SessionCore.docc/ErrorCodes.md")
        let text = try String(contentsOf: article, encoding: .utf8)
        for code in SessionError.Code.allCases {
            XCTAssertTrue(text.contains("`\(code.rawValue)`"), "\(code.rawValue) is not in ErrorCodes.md")
        }
    }
}
