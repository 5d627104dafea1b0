import ClientTestSupport
import Foundation
import SessionCore
import SessionTesting
import XCTest

/// Two accounts at one provider, kept apart: listed, opened, signed in and removed one at a time —
/// in files and in the keychain (a fake with `SecItem`'s semantics).
final class AccountSessionsTests: XCTestCase {
    enum Kind: CaseIterable { case files, keychain }

    private func accounts(in kind: Kind) throws -> (LocalProvider, AccountSessions) {
        let local = try LocalProvider(clock: ManualClock()) { $0.users = [.erika, .max] }
        addTeardownBlock { local.stop() }
        let configuration = try local.configuration()
        let provider = OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 5))
        let store: AccountStore
        switch kind {
        case .files:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("accounts-\(UUID().uuidString)")
            addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
            store = try FileAccountStore(configuration: configuration, directory: directory)
        case .keychain:
            let keychain = SecItemSemanticsKeychain()
            // The one-session item of the same client is not an account.
            keychain.plant(Data("{}".utf8), service: KeychainTokenStore.defaultService, account: KeychainTokenStore.account(for: configuration))
            store = KeychainAccountStore(configuration: configuration, items: keychain)
        }
        return (local, AccountSessions(provider: provider, store: store))
    }

    func testTwoAccountsAreKeptApartAndEachOpensItsOwnSession() async throws {
        for kind in Kind.allCases { try await twoAccountsAreKeptApart(in: kind) }
    }

    private func twoAccountsAreKeptApart(in kind: Kind) async throws {
        let (local, accounts) = try accounts(in: kind)
        let listedBefore = try await accounts.accounts()
        XCTAssertEqual(listedBefore, [])
        local.scriptConsent(.approve, .approveAs(subject: "max"))
        let (erika, first) = try await accounts.signIn(scopes: ["openid", "email"], agent: HeadlessUserAgent())
        let (max, second) = try await accounts.signIn(scopes: ["openid", "email"], agent: HeadlessUserAgent())
        XCTAssertEqual([erika.subject, max.subject], ["erika", "max"])
        XCTAssertEqual(erika.id, "\(local.issuer.absoluteString)#erika")
        XCTAssertNotNil(erika.signedInAt)
        let firstInfo = try await first.userInfo()
        let secondInfo = try await second.userInfo()
        XCTAssertEqual(firstInfo.sub, "erika")
        XCTAssertEqual(secondInfo.sub, "max")
        let listed = try await accounts.accounts()
        XCTAssertEqual(Set(listed.map(\.subject)), ["erika", "max"])

        // Reopened later (another launch), each account has its own session.
        let reopened = try await accounts.session(for: max)
        let reopenedInfo = try await reopened.userInfo()
        XCTAssertEqual(reopenedInfo.sub, "max")
    }

    /// Someone who can write the store copies max's session to where erika's belongs: opening
    /// erika's account never hands out max's session as hers.
    func testASessionCopiedUnderAnotherAccountIsNotOpenedAsThatAccount() async throws {
        let local = try LocalProvider(clock: ManualClock()) { $0.users = [.erika, .max] }
        addTeardownBlock { local.stop() }
        let store = InMemoryAccountStore()
        let accounts = AccountSessions(provider: OpenIDProvider(configuration: try local.configuration(), transport: CurlTransport(timeout: 5)),
                                       store: store)
        local.scriptConsent(.approve, .approveAs(subject: "max"))
        let (erika, _) = try await accounts.signIn(agent: HeadlessUserAgent())
        let (max, _) = try await accounts.signIn(agent: HeadlessUserAgent())
        let maxs = try await store.tokenStore(forSubject: max.subject).load()
        try await store.tokenStore(forSubject: erika.subject).save(try XCTUnwrap(maxs))
        let refused = await assertSessionError(.storageCorrupt) { _ = try await accounts.session(for: erika) }
        XCTAssertTrue(refused?.message.contains("another subject") == true, refused?.message ?? "")
        let stillMax = try await accounts.session(for: max).tokens
        XCTAssertEqual(stillMax?.subject, "max")
    }

    func testSigningAnAccountInAgainReplacesOnlyItsSessionAndRemovingOneKeepsTheOther() async throws {
        for kind in Kind.allCases { try await signingInAgainAndRemoving(in: kind) }
    }

    private func signingInAgainAndRemoving(in kind: Kind) async throws {
        let (local, accounts) = try accounts(in: kind)
        local.scriptConsent(.approve, .approveAs(subject: "max"), .approve)
        let (erika, _) = try await accounts.signIn(agent: HeadlessUserAgent())
        let (max, maxSession) = try await accounts.signIn(agent: HeadlessUserAgent())
        let maxTokens = await maxSession.tokens
        _ = try await accounts.signIn(agent: HeadlessUserAgent())
        let afterAgain = try await accounts.accounts()
        XCTAssertEqual(afterAgain.count, 2, "erika again: her session replaced, no third account")
        let maxNow = await (try accounts.session(for: max)).tokens
        XCTAssertEqual(maxNow, maxTokens, "max untouched")

        let erikaTokens = await (try accounts.session(for: erika)).tokens
        try await accounts.remove(erika)
        XCTAssertFalse(local.isActive(refreshToken: try XCTUnwrap(erikaTokens?.refreshToken)), "revoked")
        let afterRemoval = try await accounts.accounts()
        XCTAssertEqual(afterRemoval.map(\.subject), ["max"])
        await assertSessionError(.notAuthenticated) { _ = try await accounts.session(for: erika) }
        XCTAssertTrue(local.isActive(refreshToken: try XCTUnwrap(maxTokens?.refreshToken)))
    }

    func testSigningAnAccountInAgainRevokesTheGrantItReplaces() async throws {
        for kind in Kind.allCases {
            let (local, accounts) = try accounts(in: kind)
            let (_, first) = try await accounts.signIn(agent: HeadlessUserAgent())
            let firstTokens = await first.tokens
            let (_, second) = try await accounts.signIn(agent: HeadlessUserAgent())
            let secondTokens = await second.tokens
            XCTAssertFalse(local.isActive(refreshToken: try XCTUnwrap(firstTokens?.refreshToken)), "\(kind): no orphaned grant left behind")
            XCTAssertTrue(local.isActive(refreshToken: try XCTUnwrap(secondTokens?.refreshToken)), "\(kind): the new session lives")
            XCTAssertEqual(local.requests(to: .revocation).count, 1)
        }
    }

    func testAnAccountsSignInTimeIsItsAuthenticationsNotItsLastRefresh() async throws {
        let clock = ManualClock()
        let local = try LocalProvider(clock: clock) { $0.users = [.erika, .max] }
        addTeardownBlock { local.stop() }
        let configuration = try local.configuration()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("accounts-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let accounts = AccountSessions(provider: OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 5), clock: clock),
                                       store: try FileAccountStore(configuration: configuration, directory: directory))
        local.scriptConsent(.approve, .approveAs(subject: "max"))
        let (erika, erikaSession) = try await accounts.signIn(agent: HeadlessUserAgent())
        let signedIn = await erikaSession.tokens
        clock.advance(by: 60)
        _ = try await accounts.signIn(agent: HeadlessUserAgent())
        clock.advance(by: 60)
        let refreshed = try await erikaSession.refresh()
        XCTAssertNotNil(refreshed.idToken)
        XCTAssertNotEqual(refreshed.idToken, signedIn?.idToken, "the refresh brought a new ID token")
        // The refreshed ID token keeps the authentication's auth_time (OIDC Core §12.2).
        let listed = try await accounts.accounts()
        XCTAssertEqual(listed.map(\.subject), ["max", "erika"], "the latest sign-in first, not the latest refresh")
        XCTAssertEqual(listed.last?.signedInAt, erika.signedInAt)
    }

    func testAnAccountNeedsAnIDToken() async throws {
        let (_, accounts) = try accounts(in: .files)
        await assertSessionError(.invalidConfiguration) { _ = try await accounts.signIn(scopes: ["permission_management"], agent: HeadlessUserAgent()) }
    }
}
