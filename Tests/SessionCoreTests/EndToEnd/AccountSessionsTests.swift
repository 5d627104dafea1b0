import ClientTestSupport
import Foundation
import SessionCore
import SessionTesting
import XCTest

/// Two accounts at one provider, kept apart: listed, opened, signed in and removed one at a time.
final class AccountSessionsTests: XCTestCase {
    private static let max = LocalProvider.User(subject: "max", email: "max@example.com", givenName: "Max", familyName: "Mustermann")

    private func accounts() throws -> (LocalProvider, AccountSessions, URL) {
        let local = try LocalProvider(clock: ManualClock()) { $0.users = [.erika, Self.max] }
        addTeardownBlock { local.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("accounts-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let configuration = try local.configuration()
        let provider = OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 5))
        return (local, AccountSessions(provider: provider, store: try FileAccountStore(configuration: configuration, directory: directory)), directory)
    }

    func testTwoAccountsAreKeptApartAndEachOpensItsOwnSession() async throws {
        let (local, accounts, _) = try accounts()
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

    func testSigningAnAccountInAgainReplacesOnlyItsSessionAndRemovingOneKeepsTheOther() async throws {
        let (local, accounts, _) = try accounts()
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

    func testAnAccountNeedsAnIDToken() async throws {
        let (_, accounts, _) = try accounts()
        await assertSessionError(.invalidConfiguration) { _ = try await accounts.signIn(scopes: ["permission_management"], agent: HeadlessUserAgent()) }
    }
}
