import ClientTestSupport
import Foundation
import SessionCore
import SessionPermissions
import SessionTesting
import XCTest

/// A LocalProvider left running stays bounded: its log keeps the newest entries, what can no
/// longer be used is forgotten, and its state file is written only when what it keeps changed.
final class LocalProviderBoundsTests: XCTestCase {
    private struct Setup {
        let clock: ManualClock
        let provider: LocalProvider
        let client: SessionClient
        let agent: HeadlessUserAgent
    }

    private func makeSetup(edit: (inout LocalProvider.Options) -> Void = { _ in }) throws -> Setup {
        let clock = ManualClock()
        let provider = try LocalProvider(clock: clock, configure: edit)
        addTeardownBlock { provider.stop() }
        let transport = provider.inProcessTransport
        let client = SessionClient(configuration: try provider.configuration(), transport: transport, clock: clock)
        return Setup(clock: clock, provider: provider, client: client, agent: HeadlessUserAgent(transport: transport))
    }

    func testTheRequestLogKeepsTheNewestEntries() async throws {
        let setup = try makeSetup { $0.requestLogLimit = 5 }
        let transport = setup.provider.inProcessTransport
        for index in 0..<23 {
            let url = URL(string: setup.provider.url(of: .discovery).absoluteString + "?n=\(index)")!
            _ = try await transport.send(HTTPRequest(method: "GET", url: url))
        }
        XCTAssertEqual(setup.provider.requestLog.map { $0.parameters["n"] }, ["18", "19", "20", "21", "22"])
    }

    func testSignInsAndSignOutsWithoutEndKeepTheRememberedCredentialsBounded() async throws {
        let setup = try makeSetup()
        var revoked: [String] = []
        for _ in 0..<300 {
            let tokens = try await setup.client.signIn(agent: setup.agent)
            try await setup.client.signOut(revokeTokens: true)
            revoked.append(try XCTUnwrap(tokens.refreshToken))
            // Past the code's lifetime, well within the tokens'.
            setup.clock.advance(by: 61)
        }
        // Each cycle leaves a used code and two revoked tokens: without forgetting, 900 would be kept.
        XCTAssertLessThanOrEqual(setup.provider.retainedCredentials, 200)
        XCTAssertFalse(revoked.contains { setup.provider.isActive(refreshToken: $0) }, "a forgotten token stays refused")
    }

    func testARetiredRefreshTokenStillRevokesItsFamilyAfterOthersAreForgotten() async throws {
        let setup = try makeSetup()
        let first = try await setup.client.signIn(agent: setup.agent)
        let retired = try XCTUnwrap(first.refreshToken)
        let refreshed = try await setup.client.refresh()
        let current = try XCTUnwrap(refreshed.refreshToken)
        // Enough other grants come and go to sweep the provider's memory several times.
        let other = SessionClient(configuration: try setup.provider.configuration(), transport: setup.provider.inProcessTransport,
                                  clock: setup.clock)
        for _ in 0..<150 {
            _ = try await other.signIn(agent: setup.agent)
            try await other.signOut(revokeTokens: true)
            setup.clock.advance(by: 61)
        }
        XCTAssertTrue(setup.provider.isActive(refreshToken: current))

        try await setup.client.setTokens(first)
        await assertSessionError(.reauthenticationRequired) { _ = try await setup.client.refresh() }
        XCTAssertFalse(setup.provider.isActive(refreshToken: current), "reuse of the retired token revoked its family")
        XCTAssertFalse(setup.provider.isActive(refreshToken: retired))
    }

    func testTheStateFileIsRewrittenOnlyWhenItsContentChanges() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bounds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("provider.json")
        let setup = try makeSetup { $0.stateFile = file }
        _ = try await setup.client.signIn(scopes: ["openid", "permission_management"], agent: setup.agent)
        // Any write would bring the file back.
        try FileManager.default.removeItem(at: file)
        for _ in 0..<20 {
            _ = try await setup.client.userInfo()
            _ = try await PermissionCenter(client: setup.client, endpoints: setup.provider.permissionCenter).fetchPermissions()
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path), "reads did not write the file")

        _ = try await setup.client.refresh()
        XCTAssertTrue(FileManager.default.fileExists(atPath: file.path), "a refresh changed what is kept")
    }
}
