import DemoTestSupport
import Foundation
import XCTest

/// `session-demo --resource`: the MCP sign-in from a server's URL, run as a user runs it.
final class ResourceWalkTests: XCTestCase {
    func testTheEmbeddedResourceIsReachedFromItsURLAlone() async throws {
        let run = try await DemoProcess.run(["--resource", "embedded"])
        XCTAssertEqual(run.status, 0, run.errorOutput)
        XCTAssertTrue(run.output.contains("/api/mcp; authorization servers: http://127.0.0.1:"), run.output)
        XCTAssertTrue(run.output.contains("client_id dyn-"), "registered dynamically: \(run.output)")
        XCTAssertTrue(run.output.contains("no identity (OAuth only)"), run.output)
        XCTAssertTrue(run.output.contains("with the token: HTTP 200"), run.output)
        XCTAssertFalse(run.output.contains("at-"), "no access token is printed")
    }

    func testAResourceWithAnIssuerIsAUsageError() async throws {
        let run = try await DemoProcess.run(["--resource", "embedded", "--issuer", "https://op.example", "--client-id", "x"])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.errorOutput.contains("--resource"), run.errorOutput)
    }
}
