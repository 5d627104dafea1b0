import Foundation
import SessionCore
import SessionTesting
import XCTest

/// A sign-out on a store several processes share (two clients on one session file, as two
/// processes are: each its own store and file lock) holds everywhere.
final class SharedSignOutTests: XCTestCase {
    private var provider: LocalProvider!
    private var directory: URL!

    override func setUpWithError() throws {
        provider = try LocalProvider(clock: SystemClock())
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("signout-\(UUID().uuidString)")
    }

    override func tearDown() {
        provider.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    private func client() throws -> SessionClient {
        let configuration = try provider.configuration()
        return SessionClient(configuration: configuration, store: try FileTokenStore(configuration: configuration, directory: directory),
                             transport: CurlTransport(timeout: 5))
    }

    func testOtherProcessesLearnOfASignOutAtTheirNextCallNotTheirNextRefresh() async throws {
        let daemon = try client()
        _ = try await daemon.signIn(agent: HeadlessUserAgent())
        let lost = Locked<[SessionError]>([])
        await daemon.setEventHandler { event in
            if case .sessionLost(let error) = event { lost.withLock { $0.append(error) } }
        }
        _ = try await daemon.validTokens()

        let logout = try client()
        try await logout.signOut(revokeTokens: true)
        XCTAssertEqual(provider.requests(to: .revocation).count, 1)

        // The daemon's access token is still fresh, but its session is over.
        do {
            _ = try await daemon.validTokens()
            XCTFail("a session signed out elsewhere must end at the next call")
        } catch let error as SessionError {
            XCTAssertEqual(error.code, .reauthenticationRequired)
            XCTAssertTrue(error.message.contains("signed out elsewhere"), error.message)
        }
        XCTAssertEqual(lost.value.count, 1)
        let stored = try await client().loadStoredSession()
        XCTAssertNil(stored)
    }

    func testARefreshInAnotherProcessNeverBringsTheSessionBackAfterASignOut() async throws {
        let daemon = try client()
        let first = try await daemon.signIn(agent: HeadlessUserAgent())
        try await daemon.setTokens(first.withExpiry(Date().addingTimeInterval(-60)))
        // The daemon's refresh is on its way (the provider slow to answer) as the logout starts.
        provider.inject(.delay(0.5), at: .token, times: 1)
        let refresh = Task { try await daemon.validTokens() }
        try await client().signOut(revokeTokens: true)
        switch await refresh.result {
        case .success(let refreshed):
            // The refresh held the lock first: the logout waited, then revoked its rotated token.
            XCTAssertNotEqual(refreshed.refreshToken, first.refreshToken)
            XCTAssertFalse(provider.isActive(refreshToken: try XCTUnwrap(refreshed.refreshToken)), "the newest refresh token was revoked")
        case .failure(let error):
            // The logout held it first: the refresh found the session ended and sent nothing.
            XCTAssertEqual((error as? SessionError)?.code, .reauthenticationRequired, "\(error)")
            XCTAssertFalse(provider.isActive(refreshToken: try XCTUnwrap(first.refreshToken)))
        }
        let stored = try await client().loadStoredSession()
        XCTAssertNil(stored, "no refresh brought the session back")
        XCTAssertEqual(provider.refreshTokenReuses, 0)
    }
}
