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

    func testALogoutWhileTheDaemonRefreshesWaitsForItAndRevokesTheNewestToken() async throws {
        // Access tokens of 4 s: the daemon refreshes once 2 s are left (half the lifetime).
        let provider = try LocalProvider(options: { var options = LocalProvider.Options()
            options.devicePollingInterval = 1
            options.approvesDeviceSignInsAfterPolls = 1
            options.accessTokenLifetime = 4
            return options }())
        defer { provider.stop() }
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("agent-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: store) }
        let common = ["--issuer", provider.issuer.absoluteString, "--client-id", LocalProvider.Client.demo.id, "--store", store.path]
        let login = try await DemoProcess.run(common + ["login"], executable: "agentctl")
        XCTAssertEqual(login.status, 0, login.errorOutput)
        let tokenRequestsAtLogin = provider.requests(to: .token).count
        let configuration = try SessionConfiguration(issuer: provider.issuer, clientID: LocalProvider.Client.demo.id,
                                                     redirectURI: URL(string: "http://127.0.0.1/callback")!)
        let signedIn = try await FileTokenStore(configuration: configuration, directory: store).load()
        let loginRefreshToken = try XCTUnwrap(signedIn?.refreshToken)

        // The daemon's refresh is held at the provider for a second when it comes.
        provider.inject(.delay(1), at: .token, times: 1)
        let refreshing = expectation(description: "the daemon's refresh reached the provider")
        provider.whenReceiving(.token) { refreshing.fulfill() }
        var daemon = try ChildProcess.start("agentd", common + ["--every", "200"])
        _ = await daemon.lines.next()
        await fulfillment(of: [refreshing], timeout: 20)
        provider.whenReceiving(.token, nil)
        XCTAssertEqual(provider.requests(to: .token).count, tokenRequestsAtLogin + 1)
        // The logout starts while the refresh is at the provider: it waits for the daemon's lock.
        let logout = try await DemoProcess.run(common + ["logout"], executable: "agentctl")
        XCTAssertEqual(logout.status, 0, logout.errorOutput)
        var last: String?
        while let line = await daemon.lines.next() { last = line }
        XCTAssertEqual(last?.hasPrefix("the session ended:"), true, "\(last ?? "nothing")")
        _ = await daemon.status()
        let status = try await DemoProcess.run(common + ["status"], executable: "agentctl")
        XCTAssertEqual(status.output, "not signed in\n", "the refresh in flight did not bring the session back")
        let revoked = try XCTUnwrap(provider.requests(to: .revocation).last?.parameters["token"])
        XCTAssertNotEqual(revoked, loginRefreshToken, "the refresh's rotated token was revoked, not the spent one")
        XCTAssertFalse(provider.isActive(refreshToken: revoked))
        XCTAssertEqual(provider.refreshTokenReuses, 0)
    }
}
