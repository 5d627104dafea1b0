import CLibSecret
import Foundation
import SessionCore
import SessionKeyring
import SessionTesting
import XCTest

/// `SecretServiceTokenStore` against a real gnome-keyring-daemon on a private D-Bus session
/// (Tests/Keyring/run.sh starts both and unlocks the keyring with a test password).
final class SecretServiceTokenStoreTests: XCTestCase {
    private func configuration(client: String = "keyring-\(UUID().uuidString)") throws -> SessionConfiguration {
        try SessionConfiguration(issuer: URL(string: "https://op.example/tenant")!, clientID: client,
                                 redirectURI: URL(string: "com.example.app:/cb")!)
    }

    private func tokens(_ access: String) -> SessionTokens {
        SessionTokens(accessToken: access, refreshToken: "refresh-\(access)", idToken: nil, expiresAt: Date(timeIntervalSince1970: 2_000_000_000),
                      scopes: ["openid"], subject: "erika")
    }

    func testSaveLoadReplaceClear() async throws {
        let store = SecretServiceTokenStore(configuration: try configuration())
        let nothing = try await store.load()
        XCTAssertNil(nothing)
        try await store.save(tokens("one"))
        let first = try await store.load()
        XCTAssertEqual(first?.accessToken, "one")
        try await store.save(tokens("two"))
        let second = try await store.load()
        XCTAssertEqual(second?.accessToken, "two")
        try await store.clear()
        let cleared = try await store.load()
        XCTAssertNil(cleared)
        try await store.clear()
    }

    func testTheItemIsLabelledForAPersonAndKeyedByIssuerAndClient() async throws {
        let configuration = try configuration()
        let store = SecretServiceTokenStore(configuration: configuration)
        try await store.save(tokens("labelled"))
        addTeardownBlock { try? await store.clear() }
        let search = Process()
        search.executableURL = URL(fileURLWithPath: "/usr/bin/secret-tool")
        search.arguments = ["search", "issuer", configuration.issuer.absoluteString, "client_id", configuration.clientID]
        let output = Pipe()
        search.standardOutput = output
        search.standardError = FileHandle.nullDevice
        try search.run()
        let listed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        search.waitUntilExit()
        XCTAssertTrue(listed.contains("label = SessionService: https://op.example/tenant (\(configuration.clientID))"), listed)
        XCTAssertTrue(listed.contains("schema = org.sessionservice.Session"), listed)
    }

    func testTwoConfigurationsSideBySide() async throws {
        let first = SecretServiceTokenStore(configuration: try configuration())
        let second = SecretServiceTokenStore(configuration: try configuration())
        try await first.save(tokens("first"))
        try await second.save(tokens("second"))
        addTeardownBlock { try? await first.clear(); try? await second.clear() }
        let (a, b) = (try await first.load(), try await second.load())
        XCTAssertEqual(a?.accessToken, "first")
        XCTAssertEqual(b?.accessToken, "second")
        try await first.clear()
        let remaining = try await second.load()
        XCTAssertEqual(remaining?.accessToken, "second", "clearing one leaves the other")
    }

    func testASecondClientRestoresTheSessionAndRefreshesIt() async throws {
        let provider = try LocalProvider()
        defer { provider.stop() }
        let configuration = try provider.configuration()
        let store = SecretServiceTokenStore(configuration: configuration)
        addTeardownBlock { try? await store.clear() }
        let signedIn = try await SessionClient(configuration: configuration, store: store).signIn(agent: HeadlessUserAgent())
        let later = SessionClient(configuration: configuration, store: SecretServiceTokenStore(configuration: configuration))
        let restored = try await later.loadStoredSession()
        XCTAssertEqual(restored?.refreshToken, signedIn.refreshToken)
        let refreshed = try await later.refresh()
        let stored = try await store.load()
        XCTAssertEqual(stored?.refreshToken, refreshed.refreshToken, "the rotated refresh token is in the keyring")
        XCTAssertEqual(provider.refreshTokenReuses, 0)
    }

    func testAnotherClientsItemIsCorruptAndLeftInPlace() async throws {
        let own = try configuration()
        let store = SecretServiceTokenStore(configuration: own)
        // The item of this issuer and client, holding another client's envelope.
        let foreign = try configuration(client: "someone-else")
        try await SecretServiceTokenStore(configuration: foreign).save(tokens("theirs"))
        let planted = try await planted(from: foreign, as: own)
        addTeardownBlock { try? await store.clear(); try? await SecretServiceTokenStore(configuration: foreign).clear() }
        XCTAssertTrue(planted)
        do {
            _ = try await store.load()
            XCTFail("another client's session must not load")
        } catch let error as SessionError {
            XCTAssertEqual(error.code, .storageCorrupt)
            XCTAssertFalse(error.message.contains("theirs"), "no token in the message")
        }
    }

    /// Copies the secret of `source`'s item into `target`'s item, as a confused tool might.
    private func planted(from source: SessionConfiguration, as target: SessionConfiguration) async throws -> Bool {
        var failure = clibsecret_failure(domain: 0, code: 0, message: nil)
        var secret: UnsafeMutablePointer<CChar>?
        guard clibsecret_lookup(source.issuer.absoluteString, source.clientID, nil, &secret, &failure) == Int32(CLIBSECRET_DONE.rawValue),
              let secret else { return false }
        defer { free(secret) }
        return clibsecret_store(target.issuer.absoluteString, target.clientID, nil, "planted", secret, &failure) == Int32(CLIBSECRET_DONE.rawValue)
    }

    /// Last (by name): the keyring is locked, and the daemon has no prompter to unlock it with.
    func testZZALockedKeyringIsAStorageFailureThatSaysSo() async throws {
        let store = SecretServiceTokenStore(configuration: try configuration(client: KeyringUnlockedAgainTests.lockedClient))
        try await store.save(tokens("kept"))
        var failure = clibsecret_failure(domain: 0, code: 0, message: nil)
        XCTAssertEqual(clibsecret_lock_default_collection(&failure), Int32(CLIBSECRET_DONE.rawValue))
        for (label, call) in [("load", { _ = try await store.load() }), ("save", { try await store.save(self.tokens("new")) })]
            as [(String, () async throws -> Void)] {
            do {
                try await call()
                XCTFail("\(label) must fail while the keyring is locked")
            } catch let error as SessionError {
                XCTAssertEqual(error.code, .storageFailed, label)
                XCTAssertTrue(error.message.contains("the keyring is locked"), "\(label): \(error.message)")
            }
        }
        // Tests/Keyring/run.sh unlocks the keyring again and KeyringUnlockedAgainTests finds the session as it was.
    }

    func testADPoPSessionKeepsItsKeyInTheItemAndALaterProcessProvesWithIt() async throws {
        let provider = try LocalProvider(clock: SystemClock()) { options in
            options.offersDPoP = true
            options.requiresDPoP = true
        }
        addTeardownBlock { provider.stop() }
        let configuration = try provider.configuration(dpop: .required)
        let signedIn = try await SessionClient(configuration: configuration, store: SecretServiceTokenStore(configuration: configuration),
                                               transport: CurlTransport(timeout: 5)).signIn(agent: HeadlessUserAgent())
        XCTAssertTrue(signedIn.isSenderConstrained)
        let later = SessionClient(configuration: configuration, store: SecretServiceTokenStore(configuration: configuration),
                                  transport: CurlTransport(timeout: 5))
        let restored = try await later.loadStoredSession()
        XCTAssertEqual(restored?.dpopKey, signedIn.dpopKey, "the key is in the item's envelope")
        let info = try await later.userInfo()
        XCTAssertEqual(info.sub, "erika")
        try await later.signOut()
        let gone = try await SecretServiceTokenStore(configuration: configuration).load()
        XCTAssertNil(gone, "the key goes with the session")
    }
}

/// Run by Tests/Keyring/run.sh after it unlocked the keyring that the locked-keyring test locked:
/// the session a failed save left alone is there, as it was.
final class KeyringUnlockedAgainTests: XCTestCase {
    static let lockedClient = "keyring-locked-session"

    func testTheSessionIsAsItWasBeforeTheLock() async throws {
        guard ProcessInfo.processInfo.environment["SESSION_KEYRING_PHASE"] == "unlocked-again" else {
            throw XCTSkip("run by Tests/Keyring/run.sh once the keyring is unlocked again")
        }
        let store = SecretServiceTokenStore(configuration: try SessionConfiguration(
            issuer: URL(string: "https://op.example/tenant")!, clientID: Self.lockedClient, redirectURI: URL(string: "com.example.app:/cb")!))
        let kept = try await store.load()
        XCTAssertEqual(kept?.accessToken, "kept", "the save refused while locked changed nothing")
        try await store.clear()
    }
}
