import Foundation
import SessionCore
import SessionTesting
import XCTest

/// KeychainTokenStore's logic against a keychain with SecItem's semantics.
final class KeychainTokenStoreTests: XCTestCase {
    private let tokens = makeTokens()

    private static func makeTokens(access: String = "access-secret", refresh: String = "refresh-secret") -> SessionTokens {
        SessionTokens(accessToken: access, refreshToken: refresh, idToken: nil,
                      expiresAt: Date(timeIntervalSince1970: 2_000_000_000), scopes: ["openid"], subject: "user-1")
    }
    private let keychain = SecItemSemanticsKeychain()

    private static let issuer = URL(string: "https://op.example")!
    private static let clientID = "client-1"
    private static let redirectURI = URL(string: "com.example.app:/oauth/callback")!

    private func configuration(clientID: String = KeychainTokenStoreTests.clientID) throws -> SessionConfiguration {
        try SessionConfiguration(issuer: Self.issuer, clientID: clientID, redirectURI: Self.redirectURI)
    }

    private func store(clientID: String = KeychainTokenStoreTests.clientID, accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly,
                       accessGroup: String? = nil) throws -> KeychainTokenStore {
        KeychainTokenStore(configuration: try configuration(clientID: clientID), accessibility: accessibility,
                           accessGroup: accessGroup, items: keychain)
    }

    private func code(of body: () async throws -> Void) async -> SessionError? {
        do {
            try await body()
            return nil
        } catch {
            return error as? SessionError
        }
    }

    func testTheItemIsAGenericPasswordNamedByServiceIssuerAndClient() async throws {
        let store = try store()
        XCTAssertEqual(store.service, "SessionService")
        XCTAssertEqual(store.account, "\(Self.issuer.absoluteString)#\(Self.clientID)")
        try await store.save(tokens)
        XCTAssertEqual(Array(keychain.items.keys), [.init(service: "SessionService", account: store.account)])
    }

    func testRoundTripThenClear() async throws {
        let store = try store()
        let nothing = try await store.load()
        XCTAssertNil(nothing, "a missing item is no session, not an error")
        XCTAssertFalse(store.hasStoredSession)
        try await store.save(tokens)
        XCTAssertTrue(store.hasStoredSession)
        let loaded = try await store.load()
        XCTAssertEqual(loaded, tokens)
        try await store.clear()
        let cleared = try await store.load()
        XCTAssertNil(cleared)
        try await store.clear()
        XCTAssertEqual(keychain.calls.suffix(3), ["delete", "copy", "delete"], "clearing a missing item succeeds")
    }

    func testASecondSaveUpdatesTheOneItem() async throws {
        let store = try store()
        try await store.save(tokens)
        let rotated = Self.makeTokens(refresh: "refresh-secret-2")
        try await store.save(rotated)
        XCTAssertEqual(keychain.items.count, 1)
        XCTAssertEqual(keychain.calls, ["add", "add", "update"])
        let loaded = try await store.load()
        XCTAssertEqual(loaded?.refreshToken, "refresh-secret-2")
    }

    func testAnItemDeletedBetweenAddAndUpdateIsAddedAgain() async throws {
        let store = try store()
        try await store.save(tokens)
        keychain.deleteAfterNextDuplicate()
        try await store.save(tokens)
        XCTAssertEqual(keychain.calls, ["add", "add", "update", "add"])
        let loaded = try await store.load()
        XCTAssertEqual(loaded, tokens)
    }

    func testAccessibilityIsWrittenOnAddAndOnUpdate() async throws {
        try await store(accessibility: .whenUnlocked).save(tokens)
        XCTAssertEqual(keychain.items.values.first?.accessibility, .whenUnlocked)
        try await store(accessibility: .afterFirstUnlockThisDeviceOnly).save(tokens)
        XCTAssertEqual(keychain.items.values.first?.accessibility, .afterFirstUnlockThisDeviceOnly)
        XCTAssertEqual(keychain.items.count, 1, "accessibility is not part of the lookup")
    }

    func testClientsAndAccessGroupsGetItemsOfTheirOwn() async throws {
        try await store(clientID: "one").save(tokens)
        try await store(clientID: "two").save(tokens)
        try await store(clientID: "one", accessGroup: "TEAM.shared").save(tokens)
        XCTAssertEqual(keychain.items.count, 3)
        try await store(clientID: "one").clear()
        let other = try await store(clientID: "two").load()
        XCTAssertEqual(other, tokens)
    }

    func testALockedKeychainIsAStorageFailureThatChangesNothing() async throws {
        let store = try store()
        try await store.save(tokens)
        keychain.failEveryCall(with: .interactionNotAllowed)
        let loadError = await code { _ = try await store.load() }
        XCTAssertEqual(loadError?.code, .storageFailed)
        XCTAssertTrue(loadError?.message.contains("locked") ?? false, loadError?.message ?? "")
        let rotated = Self.makeTokens(refresh: "refresh-secret-2")
        let saveError = await code { try await store.save(rotated) }
        XCTAssertEqual(saveError?.code, .storageFailed)
        let clearError = await code { try await store.clear() }
        XCTAssertEqual(clearError?.code, .storageFailed)
        keychain.failEveryCall(with: nil)
        let loaded = try await store.load()
        XCTAssertEqual(loaded, tokens, "the session is intact once the device is unlocked")
    }

    func testOtherStatusesNameThemselves() async throws {
        let store = try store()
        keychain.failEveryCall(with: .missingEntitlement)
        let entitlement = await code { try await store.save(tokens) }
        XCTAssertEqual(entitlement?.code, .storageFailed)
        XCTAssertTrue(entitlement?.message.contains("errSecMissingEntitlement") ?? false)
        keychain.failEveryCall(with: KeychainStatus(rawValue: -50))
        let parameter = await code { _ = try await store.load() }
        XCTAssertEqual(parameter?.code, .storageFailed)
        XCTAssertTrue(parameter?.message.contains("-50") ?? false)
    }

    func testCorruptForeignOrOversizedDataIsStorageCorruptAndLeftInPlace() async throws {
        let store = try store()
        let other = try configuration(clientID: "someone-else")
        let foreignKeychain = SecItemSemanticsKeychain()
        try await KeychainTokenStore(configuration: other, items: foreignKeychain).save(tokens)
        let foreignData = try XCTUnwrap(foreignKeychain.items.values.first?.data)
        let cases: [(String, Data)] = [
            ("not JSON", Data("not a session".utf8)),
            ("truncated", Data(#"{"version":1,"issuer":"#.utf8)),
            ("another client's session", foreignData),
            ("an unknown version", Data(#"{"version":7,"issuer":"x","clientID":"y","tokens":{}}"#.utf8)),
            ("over 1 MiB", Data(repeating: 0x20, count: (1 << 20) + 1)),
        ]
        for (name, data) in cases {
            keychain.plant(data, service: store.service, account: store.account)
            let error = await code { _ = try await store.load() }
            XCTAssertEqual(error?.code, .storageCorrupt, name)
            XCTAssertEqual(keychain.items.values.first?.data, data, "\(name) is left in place")
        }
    }

    func testASessionOver1MiBIsNotSaved() async throws {
        let huge = Self.makeTokens(access: String(repeating: "a", count: 1 << 20))
        let error = await code { try await store().save(huge) }
        XCTAssertEqual(error?.code, .storageFailed)
        XCTAssertTrue(keychain.items.isEmpty)
    }

    func testNoErrorMessageHoldsATokenOrTheStoredBytes_C12() async throws {
        let store = try store()
        try await store.save(tokens)
        var messages: [String] = []
        keychain.failEveryCall(with: .interactionNotAllowed)
        for call in [{ _ = try await store.load() }, { try await store.save(self.tokens) }] as [() async throws -> Void] {
            if let error = await code(of: call) { messages.append("\(error) \(error.message)") }
        }
        keychain.failEveryCall(with: nil)
        keychain.plant(Data("{\"access\":\"access-secret\"}".utf8), service: store.service, account: store.account)
        if let error = await code(of: { _ = try await store.load() }) { messages.append("\(error) \(error.message)") }
        XCTAssertEqual(messages.count, 3)
        for message in messages {
            XCTAssertFalse(message.contains("secret"), message)
        }
    }

    func testASessionClientSignsInRefreshesAndRestoresThroughTheKeychain() async throws {
        let clock = ManualClock()
        let provider = try LocalProvider(clock: clock)
        addTeardownBlock { provider.stop() }
        let configuration = try provider.configuration()
        let store = KeychainTokenStore(configuration: configuration, items: keychain)
        let client = SessionClient(configuration: configuration, store: store, transport: CurlTransport(timeout: 5), clock: clock)
        let signedIn = try await client.signIn(agent: HeadlessUserAgent())
        clock.advance(by: 3600)
        let refreshed = try await client.validTokens()
        XCTAssertNotEqual(refreshed.refreshToken, signedIn.refreshToken, "LocalProvider rotates refresh tokens")
        let saved = try await store.load()
        XCTAssertEqual(saved?.refreshToken, refreshed.refreshToken, "the rotated token is in the keychain")

        let nextLaunch = SessionClient(configuration: configuration, store: KeychainTokenStore(configuration: configuration, items: keychain),
                                       transport: CurlTransport(timeout: 5), clock: clock)
        let restored = try await nextLaunch.loadStoredSession()
        XCTAssertEqual(restored?.refreshToken, refreshed.refreshToken)
        let user = try await nextLaunch.userInfo()
        XCTAssertEqual(user.sub, "erika")
    }
}
