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

    /// The secret in the file variable `name` names (written by run-interop.sh, mode 0600).
    static func secret(fromFileIn name: String, file: StaticString, line: UInt) throws -> String {
        let path = try string(name, file: file, line: line)
        guard let contents = try? String(contentsOfFile: path, encoding: .utf8),
              case let secret = contents.trimmingCharacters(in: .whitespacesAndNewlines), !secret.isEmpty else {
            XCTFail("\(name) names no readable secret", file: file, line: line)
            throw SessionError(.invalidConfiguration, process: .configuration, message: "interop secret missing")
        }
        return secret
    }

    static func url(_ name: String, file: StaticString, line: UInt) throws -> URL {
        guard let url = URL(string: try string(name, file: file, line: line)) else {
            XCTFail("\(name) is not a URL", file: file, line: line)
            throw SessionError(.invalidConfiguration, process: .configuration, message: "interop URL invalid")
        }
        return url
    }
}
