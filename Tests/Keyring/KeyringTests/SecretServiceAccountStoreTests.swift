import CLibSecret
import Foundation
import SessionCore
import SessionKeyring
import SessionTesting
import XCTest

/// `SecretServiceAccountStore` against a real gnome-keyring-daemon (Tests/Keyring/run.sh): several
/// accounts of one client, each an item of its own, beside the client's one-session item.
final class SecretServiceAccountStoreTests: XCTestCase {
    private func configuration(client: String = "accounts-\(UUID().uuidString)") throws -> SessionConfiguration {
        try SessionConfiguration(issuer: URL(string: "https://op.example/tenant")!, clientID: client,
                                 redirectURI: URL(string: "com.example.app:/cb")!)
    }

    private func tokens(subject: String) -> SessionTokens {
        SessionTokens(accessToken: "access-\(subject)", refreshToken: "refresh-\(subject)", idToken: nil,
                      expiresAt: Date(timeIntervalSince1970: 2_000_000_000), scopes: ["openid"], subject: subject)
    }

    func testEachAccountIsAnItemOfItsOwnApartFromTheOneSessionItem() async throws {
        let configuration = try configuration()
        let store = SecretServiceAccountStore(configuration: configuration)
        let single = SecretServiceTokenStore(configuration: configuration)
        try await single.save(tokens(subject: "single"))
        try await store.tokenStore(forSubject: "erika").save(tokens(subject: "erika"))
        try await store.tokenStore(forSubject: "max").save(tokens(subject: "max"))
        addTeardownBlock {
            try? await single.clear()
            for subject in ["erika", "max"] { try? await store.tokenStore(forSubject: subject).clear() }
        }

        let listed = try await store.storedSessions()
        XCTAssertEqual(Set(listed.map(\.subject)), ["erika", "max"], "the one-session item is no account")
        let stillSingle = try await single.load()
        XCTAssertEqual(stillSingle?.subject, "single", "an account's item is not the one-session item")
        let max = try await store.tokenStore(forSubject: "max").load()
        XCTAssertEqual(max?.accessToken, "access-max")

        try await store.tokenStore(forSubject: "erika").clear()
        let afterRemoval = try await store.storedSessions()
        XCTAssertEqual(afterRemoval.map(\.subject), ["max"])
        XCTAssertEqual(try store.account(forSubject: "max").count, 32, "the attribute is a digest, not the subject")
    }

    func testAnItemCopiedUnderAnotherAccountIsLeftOut() async throws {
        let configuration = try configuration()
        let store = SecretServiceAccountStore(configuration: configuration)
        try await store.tokenStore(forSubject: "max").save(tokens(subject: "max"))
        addTeardownBlock { for subject in ["erika", "max"] { try? await store.tokenStore(forSubject: subject).clear() } }
        var failure = clibsecret_failure(domain: 0, code: 0, message: nil)
        var secret: UnsafeMutablePointer<CChar>?
        let (issuer, client) = (configuration.issuer.absoluteString, configuration.clientID)
        XCTAssertEqual(clibsecret_lookup(issuer, client, try store.account(forSubject: "max"), &secret, &failure), Int32(CLIBSECRET_DONE.rawValue))
        let copied = try XCTUnwrap(secret)
        defer { free(copied) }
        XCTAssertEqual(clibsecret_store(issuer, client, try store.account(forSubject: "erika"), "planted", copied, &failure),
                       Int32(CLIBSECRET_DONE.rawValue))
        let listed = try await store.storedSessions()
        XCTAssertEqual(listed.map(\.subject), ["max"])
    }

    func testTwoAccountsSignInAtLocalProviderAndEachKeepsItsSession() async throws {
        let local = try LocalProvider(clock: ManualClock()) { $0.users = [.erika, .max] }
        addTeardownBlock { local.stop() }
        let configuration = try local.configuration()
        let store = SecretServiceAccountStore(configuration: configuration)
        let accounts = AccountSessions(provider: OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 5)), store: store)
        local.scriptConsent(.approve, .approveAs(subject: "max"))
        let (erika, _) = try await accounts.signIn(agent: HeadlessUserAgent())
        let (maxAccount, _) = try await accounts.signIn(agent: HeadlessUserAgent())
        addTeardownBlock { for subject in ["erika", "max"] { try? await store.tokenStore(forSubject: subject).clear() } }
        let listed = try await accounts.accounts()
        XCTAssertEqual(Set(listed.map(\.subject)), ["erika", "max"])
        let reopened = try await accounts.session(for: maxAccount)
        let info = try await reopened.userInfo()
        XCTAssertEqual(info.sub, "max")
        try await accounts.remove(erika)
        let remaining = try await accounts.accounts()
        XCTAssertEqual(remaining.map(\.subject), ["max"])
    }
}
