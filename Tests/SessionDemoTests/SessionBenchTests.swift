import DemoTestSupport
import Foundation
import XCTest

/// `session-bench`, run the way CI runs it: every figure is there and every invariant holds.
final class SessionBenchTests: XCTestCase {
    private struct Document: Decodable {
        struct Figure: Decodable { let name: String; let value: Double; let goal: Double? }
        struct Invariant: Decodable { let name: String; let actual: String; let holds: Bool }
        let figures: [Figure]
        let invariants: [Invariant]
        let allInvariantsHold: Bool
    }

    func testAQuickRunPrintsEveryFigureAsJSONAndItsInvariantsHold() async throws {
        let run = try await DemoProcess.run(["--quick", "--json"], executable: "session-bench")
        XCTAssertEqual(run.status, 0, run.errorOutput)
        let document = try JSONDecoder().decode(Document.self, from: Data(run.output.utf8))
        let names = Set(document.figures.map(\.name))
        var expected = ["ratio.core-vs-raw-urlsession.userinfo.loopback", "ratio.facade-vs-core.userinfo.loopback",
                        "ratio.facade-chained-vs-core+dispatch.userinfo.in-process",
                        "ratio.facade-vs-core.userinfo.in-process", "ratio.core-vs-raw.signin.loopback",
                        "memory-growth.facade.5000-operations", "ratio.fresh-path.shared-vs-in-memory",
                        "dpop.proof.make", "ratio.dpop-vs-bearer.userinfo.loopback",
                        "dpop.floor.sign-and-verify", "ratio.dpop-floor-vs-bearer.userinfo.loopback"]
        #if os(Linux)
        expected.append("ratio.core-vs-raw-libcurl.userinfo.loopback")
        #endif
        for name in expected {
            XCTAssertTrue(names.contains(name), "\(name) is missing")
        }
        XCTAssertTrue(document.figures.allSatisfy { $0.value.isFinite && $0.value >= 0 || $0.name.hasPrefix("memory-growth") })
        let refreshes = document.invariants.filter { $0.name.hasPrefix("refresh-requests.") }
        XCTAssertEqual(refreshes.map(\.name), ["refresh-requests.core.1000-concurrent-callers", "refresh-requests.facade.1000-concurrent-callers",
                                                "refresh-requests.8-processes"])
        XCTAssertEqual(refreshes.map(\.actual), ["1", "1", "1"], "one refresh for 1,000 callers through the core and the facade, and for 8 processes")
        let server = document.invariants.filter { $0.name.hasPrefix("server.") }
        XCTAssertEqual(server.map(\.name), ["server.discovery-requests.200-sessions", "server.jwks-requests.200-sessions",
                                            "server.refreshes-after-all-expire.200-sessions"])
        XCTAssertEqual(server.map(\.actual), ["1", "1", "200"], "200 sessions on one provider: its documents once, a refresh each")
        XCTAssertTrue(document.allInvariantsHold)
        XCTAssertTrue(document.invariants.allSatisfy(\.holds))
    }

    func testAnUnknownArgumentIsAUsageError() async throws {
        let run = try await DemoProcess.run(["--fast"], executable: "session-bench")
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.errorOutput.contains("unknown argument --fast"), run.errorOutput)
        XCTAssertTrue(run.output.isEmpty)
    }
}
