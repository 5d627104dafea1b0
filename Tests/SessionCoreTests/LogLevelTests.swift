@testable import SessionCore
import SessionTesting
import XCTest

/// A line below the logger's level is neither delivered nor built, for every logger.
final class LogLevelTests: XCTestCase {
    func testALoggerSeesOnlyLinesAtOrAboveItsLevel() async throws {
        let provider = try FakeProvider()
        let everything = CapturingLogger()
        _ = try await makeClient(provider, logger: everything).signIn(agent: provider)
        XCTAssertTrue(everything.lines.contains { $0.hasPrefix("[debug]") }, "a sign-in logs debug lines")

        let warnings = CapturingLogger(minimumLevel: .warning)
        let client = try makeClient(provider, logger: warnings)
        _ = try await client.signIn(agent: provider)
        XCTAssertEqual(warnings.lines, [], "a clean sign-in has nothing at warning or above")
        provider.edit { $0.handlers["/token"] = { _ in FakeProvider.json(["error": "invalid_grant"], status: 400) } }
        _ = try? await client.refresh()
        XCTAssertFalse(warnings.lines.isEmpty, "a refused refresh that clears the session is a warning")
        XCTAssertTrue(warnings.lines.allSatisfy { $0.hasPrefix("[warning]") || $0.hasPrefix("[error]") }, "\(warnings.lines)")
    }

    func testALineBelowTheLevelIsNeverBuilt() {
        let sink = LogSink(CapturingLogger(minimumLevel: .info))
        var built: [LogLevel] = []
        func message(_ level: LogLevel) -> String {
            built.append(level)
            return "line"
        }
        for level in LogLevel.allCases { sink(level, message(level)) }
        XCTAssertEqual(built, [.info, .warning, .error])
    }
}
