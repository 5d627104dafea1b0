import Foundation
import SessionCore
import XCTest

/// Asserts that `body` throws a SessionError with `code` (and `process` when given) and returns it.
@discardableResult
package func assertSessionError<T>(_ code: SessionError.Code, process: SessionError.Process? = nil,
                           file: StaticString = #filePath, line: UInt = #line,
                           _ body: () async throws -> T) async -> SessionError? {
    do {
        let value = try await body()
        XCTFail("expected \(code), got \(value)", file: file, line: line)
        return nil
    } catch let error as SessionError {
        XCTAssertEqual(error.code, code, "\(error)", file: file, line: line)
        if let process { XCTAssertEqual(error.process, process, "\(error)", file: file, line: line) }
        return error
    } catch {
        XCTFail("expected SessionError \(code), got \(error)", file: file, line: line)
        return nil
    }
}
