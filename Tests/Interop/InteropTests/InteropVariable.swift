import Foundation
import SessionCore
import XCTest

/// The variables run-interop.sh sets for the tests. A missing or malformed one fails the test
/// (and throws) instead of letting it pass silently.
enum InteropVariable {
    static func string(_ name: String, file: StaticString, line: UInt) throws -> String {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else {
            XCTFail("\(name) is not set: run the interop tests through Tests/Interop/run-interop.sh", file: file, line: line)
            throw SessionError(.invalidConfiguration, process: .configuration, message: "interop provider missing")
        }
        return value
    }

    static func url(_ name: String, file: StaticString, line: UInt) throws -> URL {
        guard let url = URL(string: try string(name, file: file, line: line)) else {
            XCTFail("\(name) is not a URL", file: file, line: line)
            throw SessionError(.invalidConfiguration, process: .configuration, message: "interop URL invalid")
        }
        return url
    }
}
