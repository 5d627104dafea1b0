import Foundation
import GrabIdCompat
import LegacySessionReaders
import SessionCore
import SessionTesting
import XCTest

/// The tokens GrabID's SDK left in the keychain (one item per token, service = client ID, account
/// = `<name>.<scope>`) are carried over by a login session's first use, instead of a new login.
final class GrabIdLegacySessionTests: XCTestCase {
    /// A keychain holding what GrabID's SDK would have left after `harness`'s login.
    private func legacyKeychain(after harness: GrabIdHarness, store: InMemoryTokenStore) async throws -> (SecItemSemanticsKeychain, SessionTokens) {
        harness.app.signInWithLoginConfig()
        _ = await harness.log.waitForEvents(2)
        let loaded = try await store.load()
        let tokens = try XCTUnwrap(loaded)
        let keychain = SecItemSemanticsKeychain()
        let scope = "openid profile"
        for (name, value) in [("accessToken", tokens.accessToken), ("idToken", tokens.idToken ?? ""), ("refreshToken", tokens.refreshToken ?? ""),
                              ("tokenId", tokens.idToken ?? ""), ("partnerUserId", "partner-erika")] {
            keychain.plant(Data(value.utf8), service: "session-demo", account: "\(name).\(scope)")
        }
        return (keychain, tokens)
    }

    func testGrabIdsTokensAreCarriedOverAndTheirItemsRemoved() async throws {
        let legacyStore = InMemoryTokenStore()
        let before = try makeGrabIdHarness(store: legacyStore)
        let (keychain, legacy) = try await legacyKeychain(after: before, store: legacyStore)

        let store = InMemoryTokenStore()
        let after = try makeGrabIdHarness(store: store)
        after.partner.legacyKeychain = keychain
        after.partner.configuration = before.settings
        after.app.signInWithLoginConfig()
        _ = await after.log.waitForEvents(2)
        XCTAssertEqual(after.log.transcript, ["app.loadLoginSession(nil)", "app.login(nil)"])
        XCTAssertTrue(after.partner.isValidAccessToken(loginSession: try XCTUnwrap(after.app.loginSession)), "the login session holds the session")
        XCTAssertEqual(before.provider.requests(to: .authorization).count, 1, "no second login page: the session was carried over")
        let stored = try await store.load()
        let adopted = try XCTUnwrap(stored)
        XCTAssertNotEqual(adopted.refreshToken, legacy.refreshToken, "refreshed at once, the rotated token kept")
        XCTAssertTrue(keychain.items.isEmpty, "GrabID's items are gone once ours is saved: \(keychain.items.keys)")
        XCTAssertEqual(before.provider.refreshTokenReuses, 0)
    }

    func testItemsOfAnotherScopeOrAnOptedOutPartnerAreLeftAlone() async throws {
        let legacyStore = InMemoryTokenStore()
        let before = try makeGrabIdHarness(store: legacyStore)
        let (keychain, _) = try await legacyKeychain(after: before, store: legacyStore)
        for (label, scope, carriesOver) in [("another scope", "openid", true), ("opted out", "openid profile", false)] {
            let after = try makeGrabIdHarness(store: InMemoryTokenStore())
            after.partner.legacyKeychain = keychain
            after.partner.carriesOverLegacySession = carriesOver
            var settings = before.settings
            settings["Scope"] = scope
            after.partner.configuration = settings
            after.partner.authorizationAgent = nil
            after.app.signInWithLoginConfig()
            _ = await after.log.waitForEvents(2)
            XCTAssertEqual(after.log.transcript.last, "app.login(authorization/invalidConfiguration)", "\(label): no session, so a login is needed")
            XCTAssertEqual(keychain.items.count, 5, "\(label): left alone")
        }
    }
}
