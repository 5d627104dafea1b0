import ClientTestSupport
@testable import SessionCore
import SessionTesting
import XCTest

/// A line below the logger's level is neither delivered nor built, for every logger.
final class LogLevelTests: XCTestCase {
    func testALoggerSeesOnlyLinesAtOrAboveItsLevel() async throws {
        let harness = try makeLocalHarness()
        func client(logging logger: SessionLogger) throws -> SessionClient {
            SessionClient(configuration: harness.client.configuration, store: InMemoryTokenStore(), transport: CurlTransport(timeout: 5),
                          clock: harness.clock, logger: logger)
        }
        let everything = CapturingLogger()
        _ = try await client(logging: everything).signIn(agent: HeadlessUserAgent())
        XCTAssertTrue(everything.lines.contains { $0.hasPrefix("[debug]") }, "a sign-in logs debug lines")

        let warnings = CapturingLogger(minimumLevel: .warning)
        let quiet = try client(logging: warnings)
        _ = try await quiet.signIn(agent: HeadlessUserAgent())
        XCTAssertEqual(warnings.lines, [], "a clean sign-in has nothing at warning or above")
        harness.provider.inject(.status(400, body: #"{"error":"invalid_grant"}"#), at: .token)
        _ = try? await quiet.refresh()
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
