import DemoTestSupport
import Foundation
import SessionCore
import SessionTesting
import XCTest

/// The agentctl and agentd samples as a user runs them, each a process of its own on one session
/// file: login on the device grant, status, a daemon using the session, and a logout that holds
/// everywhere.
final class AgentSampleTests: XCTestCase {
    func testLoginStatusADaemonAndALogoutThatEndsTheDaemonToo() async throws {
        // The user approves on "another device" as soon as the command line first polls.
        let provider = try LocalProvider(options: { var options = LocalProvider.Options()
            options.devicePollingInterval = 1
            options.approvesDeviceSignInsAfterPolls = 1
            return options }())
        defer { provider.stop() }
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("agent-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: store) }
        let common = ["--issuer", provider.issuer.absoluteString, "--client-id", LocalProvider.Client.demo.id, "--store", store.path]
        func agentctl(_ command: String) async throws -> DemoRun {
            try await DemoProcess.run(common + [command], executable: "agentctl")
        }

        let login = try await agentctl("login")
        XCTAssertEqual(login.status, 0, login.errorOutput)
        XCTAssertTrue(login.output.contains("and enter "), login.output)
        XCTAssertTrue(login.output.hasSuffix("signed in as erika\n"), login.output)
        let status = try await agentctl("status")
        XCTAssertEqual(status.output, "signed in as erika\n")

        var daemon = try ChildProcess.start("agentd", common + ["--every", "100"])
        let first = await daemon.lines.next()
        XCTAssertEqual(first, "round 1 ok")

        let logout = try await agentctl("logout")
        XCTAssertEqual(logout.status, 0, logout.errorOutput)
        XCTAssertEqual(provider.requests(to: .revocation).count, 1, "the logout revoked the session")
        // The daemon's access token is still fresh: it learns of the logout at its next round.
        var last: String?
        while let line = await daemon.lines.next() { last = line }
        XCTAssertEqual(last, "the session ended: signed out elsewhere: another process ended the session")
        let exit = await daemon.status()
        XCTAssertEqual(exit, 3)
        let after = try await agentctl("status")
        XCTAssertEqual(after.output, "not signed in\n")
        XCTAssertEqual(provider.refreshTokenReuses, 0)
    }
}
