import Foundation
import SessionCore
import SessionTesting
import XCTest

/// Two clients on one session file, as two processes are (each its own store instance and file
/// lock): tokens another one stored are adopted only when they are this account's.
final class SharedStoreAccountTests: XCTestCase {
    func testAnotherAccountsTokensOnTheStoreEndThisSessionInsteadOfBeingAdopted() async throws {
        var max = LocalProvider.User.erika
        max.subject = "max"
        max.email = "max@example.com"
        let provider = try LocalProvider(clock: SystemClock()) { $0.users = [.erika, max] }
        defer { provider.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("accounts-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = try provider.configuration()
        func client() throws -> SessionClient {
            SessionClient(configuration: configuration, store: try FileTokenStore(configuration: configuration, directory: directory),
                          transport: CurlTransport(timeout: 5))
        }
        // A daemon signed in as Erika, its access token due for a refresh.
        let daemon = try client()
        let erika = try await daemon.signIn(agent: HeadlessUserAgent())
        try await daemon.setTokens(erika.withExpiry(Date().addingTimeInterval(-60)))
        let lost = Locked<[SessionError]>([])
        await daemon.setEventHandler { event in
            if case .sessionLost(let error) = event { lost.withLock { $0.append(error) } }
        }
        // Meanwhile the command line logged out and in again, as Max.
        let command = try client()
        _ = try await command.loadStoredSession()
        try await command.signOut(revokeTokens: true)
        provider.scriptConsent(.approveAs(subject: "max"))
        _ = try await command.signIn(agent: HeadlessUserAgent())

        do {
            let tokens = try await daemon.validTokens()
            XCTFail("the daemon went on as \(tokens.subject ?? "nobody")")
        } catch let error as SessionError {
            XCTAssertEqual(error.code, .reauthenticationRequired)
        }
        XCTAssertEqual(lost.value.map(\.code), [.reauthenticationRequired], "the app hears that its session ended")
        let stored = try await client().loadStoredSession()
        XCTAssertEqual(stored?.subject, "max", "Max's session, on the store, is left alone")
    }
}
