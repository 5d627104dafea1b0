import Foundation
import SessionCore
import SessionTesting
import XCTest

/// Two clients on one session file, as two processes are (each its own store instance and file
/// lock): tokens another one stored are adopted only when they are this account's, and another
/// account's session on the store ends this one at its next call — on a shared keychain item too.
final class SharedStoreAccountTests: XCTestCase {
    private var provider: LocalProvider!
    private var directory: URL!
    /// When set, the clients share this keychain's item (and a lock in `directory`) instead of a file.
    private var keychain: SecItemSemanticsKeychain?

    override func setUpWithError() throws {
        provider = try LocalProvider(clock: SystemClock()) { $0.users = [.erika, .max] }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("accounts-\(UUID().uuidString)")
    }

    override func tearDown() {
        provider.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// A client on the shared session file (or keychain item), as another process would open it.
    private func client() throws -> SessionClient {
        let configuration = try provider.configuration()
        let store: TokenStore
        if let keychain {
            var shared = KeychainTokenStore(configuration: configuration, items: keychain)
            shared.sharedLockDirectory = directory
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            store = shared
        } else {
            store = try FileTokenStore(configuration: configuration, directory: directory)
        }
        return SessionClient(configuration: configuration, store: store, transport: CurlTransport(timeout: 5))
    }

    /// The errors of the sessions `client` heard it lost.
    private func lostSessions(of client: SessionClient) async -> Locked<[SessionError]> {
        let lost = Locked<[SessionError]>([])
        await client.setEventHandler { event in
            if case .sessionLost(let error) = event { lost.withLock { $0.append(error) } }
        }
        return lost
    }

    /// Another process (the command line) logs out of the shared session and in again, as Max.
    private func logOutAndInAsMax() async throws {
        let command = try client()
        _ = try await command.loadStoredSession()
        try await command.signOut(revokeTokens: true)
        provider.scriptConsent(.approveAs(subject: "max"))
        _ = try await command.signIn(agent: HeadlessUserAgent())
    }

    /// `daemon`'s next `validTokens()` ends its session, told to the app once, Max's left on the store.
    private func assertTheNextCallEnds(_ daemon: SessionClient, lost: Locked<[SessionError]>, saying words: String? = nil,
                                       file: StaticString = #filePath, line: UInt = #line) async throws {
        do {
            let tokens = try await daemon.validTokens()
            XCTFail("the daemon went on as \(tokens.subject ?? "nobody")", file: file, line: line)
        } catch let error as SessionError {
            XCTAssertEqual(error.code, .reauthenticationRequired, file: file, line: line)
            if let words { XCTAssertTrue(error.message.contains(words), error.message, file: file, line: line) }
        }
        XCTAssertEqual(lost.value.map(\.code), [.reauthenticationRequired], "the app hears that its session ended", file: file, line: line)
        let stored = try await client().loadStoredSession()
        XCTAssertEqual(stored?.subject, "max", "Max's session, on the store, is left alone", file: file, line: line)
    }

    /// A daemon signed in as Erika, its access token due for a refresh, and the sessions it lost.
    private func erikaDueForARefresh() async throws -> (SessionClient, lost: Locked<[SessionError]>) {
        let daemon = try client()
        let erika = try await daemon.signIn(agent: HeadlessUserAgent())
        try await daemon.setTokens(erika.withExpiry(Date().addingTimeInterval(-60)))
        return (daemon, await lostSessions(of: daemon))
    }

    func testAnotherAccountsTokensOnTheStoreEndThisSessionInsteadOfBeingAdopted() async throws {
        let (daemon, lost) = try await erikaDueForARefresh()
        try await logOutAndInAsMax()
        try await assertTheNextCallEnds(daemon, lost: lost)
    }

    func testAnotherAccountsInterruptedRefreshOnTheStoreEndsThisSessionAndIsLeftThere() async throws {
        let (daemon, lost) = try await erikaDueForARefresh()
        try await logOutAndInAsMax()
        // Max's process dies refreshing: the store holds Max's session marked as refreshing.
        let file = try FileTokenStore(configuration: try provider.configuration(), directory: directory)
        let stored = try await file.load()
        try await file.save(try XCTUnwrap(stored).marked(.refresh))
        do {
            let tokens = try await daemon.validTokens()
            XCTFail("the daemon went on as \(tokens.subject ?? "nobody")")
        } catch let error as SessionError {
            XCTAssertEqual(error.code, .reauthenticationRequired)
            XCTAssertTrue(error.message.contains("another account"), error.message)
        }
        XCTAssertEqual(lost.value.map(\.code), [.reauthenticationRequired])
        let left = try await file.load()
        XCTAssertEqual(left?.subject, "max", "Max's session is Max's process's to resolve, not deleted by Erika's")
        XCTAssertEqual(left?.inFlight, .refresh)
    }

    func testAnotherAccountSignedInElsewhereEndsThisSessionAtItsNextCallThoughItsTokenIsFresh() async throws {
        try await anotherAccountSignedInElsewhereEndsThisSessionAtItsNextCall()
    }

    func testOnASharedKeychainItemToo() async throws {
        keychain = SecItemSemanticsKeychain()
        try await anotherAccountSignedInElsewhereEndsThisSessionAtItsNextCall()
    }

    private func anotherAccountSignedInElsewhereEndsThisSessionAtItsNextCall() async throws {
        // A daemon signed in as Erika, its access token fresh for an hour.
        let daemon = try client()
        _ = try await daemon.signIn(agent: HeadlessUserAgent())
        _ = try await daemon.validTokens()
        let lost = await lostSessions(of: daemon)
        // A refresh elsewhere of the same account changes the file, not the account: the daemon goes on.
        let sibling = try client()
        _ = try await sibling.loadStoredSession()
        _ = try await sibling.refresh()
        let same = try await daemon.validTokens()
        XCTAssertEqual(same.subject, "erika")
        try await logOutAndInAsMax()
        try await assertTheNextCallEnds(daemon, lost: lost, saying: "another account")
    }
}
