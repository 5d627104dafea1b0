import Foundation
import SessionCore
import SessionTesting
import XCTest

/// KeychainAccountStore's items, against a keychain with SecItem's semantics.
final class KeychainAccountStoreTests: XCTestCase {
    private let keychain = SecItemSemanticsKeychain()

    private func configuration(clientID: String = "client-1") throws -> SessionConfiguration {
        try SessionConfiguration(issuer: URL(string: "https://op.example")!, clientID: clientID,
                                 redirectURI: URL(string: "com.example.app:/oauth/callback")!)
    }

    private func tokens(subject: String) -> SessionTokens {
        SessionTokens(accessToken: "access-\(subject)", refreshToken: "refresh-\(subject)", idToken: nil,
                      expiresAt: Date(timeIntervalSince1970: 2_000_000_000), scopes: ["openid"], subject: subject)
    }

    func testEachAccountIsAnItemOfItsOwnAndOnlyThisClientsAreListed() async throws {
        let store = KeychainAccountStore(configuration: try configuration(), items: keychain)
        let other = KeychainAccountStore(configuration: try configuration(clientID: "client-2"), items: keychain)
        try await store.tokenStore(forSubject: "erika").save(tokens(subject: "erika"))
        try await store.tokenStore(forSubject: "max").save(tokens(subject: "max"))
        try await other.tokenStore(forSubject: "erika").save(tokens(subject: "erika"))

        let accounts = Set(keychain.items.keys.map(\.account))
        XCTAssertEqual(accounts.count, 3)
        XCTAssertTrue(accounts.contains(try store.account(forSubject: "erika")))
        XCTAssertTrue(try store.account(forSubject: "erika").hasPrefix("https://op.example#client-1#account-"))
        XCTAssertFalse(try store.account(forSubject: "erika").contains("erika"), "the item names a digest of the subject")
        let listed = try await store.storedSessions()
        XCTAssertEqual(Set(listed.map(\.subject)), ["erika", "max"])
        XCTAssertEqual(listed.first { $0.subject == "max" }?.accessToken, "access-max")
    }

    func testAnItemCopiedUnderAnotherAccountsNameIsLeftOut() async throws {
        let store = KeychainAccountStore(configuration: try configuration(), items: keychain)
        try await store.tokenStore(forSubject: "max").save(tokens(subject: "max"))
        let maxItem = try XCTUnwrap(keychain.items.first { $0.key.account == (try? store.account(forSubject: "max")) })
        keychain.plant(maxItem.value.data, service: KeychainTokenStore.defaultService, account: try store.account(forSubject: "erika"))
        let listed = try await store.storedSessions()
        XCTAssertEqual(listed.map(\.subject), ["max"])
    }

    func testALockedKeychainIsAStorageFailureThatSaysSo() async throws {
        let store = KeychainAccountStore(configuration: try configuration(), items: keychain)
        try await store.tokenStore(forSubject: "max").save(tokens(subject: "max"))
        keychain.failEveryCall(with: .interactionNotAllowed)
        do {
            _ = try await store.storedSessions()
            XCTFail("listed a locked keychain")
        } catch let error as SessionError {
            XCTAssertEqual(error.code, .storageFailed)
            XCTAssertTrue(error.message.contains("locked"), error.message)
        }
        keychain.failEveryCall(with: nil)
        let listed = try await store.storedSessions()
        XCTAssertEqual(listed.map(\.subject), ["max"], "the session is intact")
    }

    func testNoAccountsIsAnEmptyList() async throws {
        let listed = try await KeychainAccountStore(configuration: try configuration(), items: keychain).storedSessions()
        XCTAssertEqual(listed, [])
    }
}
