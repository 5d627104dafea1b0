import Foundation
import LegacySessionReaders
import NetIdCompat
import SessionCore
import SessionFacade
import SessionTesting
import XCTest

/// The session netID's SDK left (an AppAuth `OIDAuthState` archived in the `UserDefaults` suite
/// `netIdSdk`) is carried over by the first `initialize`, instead of signing the user out. The
/// archives are written by SessionTesting's `AppAuthArchiver`, as AppAuth's `encodeWithCoder:` does.
final class NetIdLegacySessionTests: XCTestCase {
    /// A suite of this test's own, removed afterwards.
    private func makeSuite() -> NetIdLegacySession {
        let suite = "netid-legacy-tests-\(UUID().uuidString)"
        addTeardownBlock { UserDefaults().removePersistentDomain(forName: suite) }
        return NetIdLegacySession(suite: suite)
    }

    private func storedValue(_ legacy: NetIdLegacySession) -> Any? {
        UserDefaults(suiteName: legacy.suite)?.object(forKey: NetIdLegacySession.key)
    }

    private func put(_ value: Any, in legacy: NetIdLegacySession) {
        let defaults = UserDefaults(suiteName: legacy.suite)
        defaults?.set(value, forKey: NetIdLegacySession.key)
        defaults?.synchronize()
    }

    /// A session the provider of `harness` issued, archived as netID left it; and its tokens.
    private func legacyArchive(from harness: NetIdHarness, clientID: String? = nil) async throws -> (Data, SessionTokens) {
        _ = await harness.signedIn()
        let loaded = try await harness.store.load()
        let tokens = try XCTUnwrap(loaded)
        var archiver = AppAuthArchiver(issuer: harness.provider.issuer, clientID: clientID ?? harness.config.clientId,
                                       refreshToken: tokens.refreshToken, idToken: tokens.idToken)
        archiver.accessToken = tokens.accessToken
        return (try archiver.authStateArchive(), tokens)
    }

    /// A service with nothing of its own stored, looking for netID's session in `legacy`.
    private func makeSuccessor(of legacyHarness: NetIdHarness, legacy: NetIdLegacySession) throws -> NetIdHarness {
        let successor = try makeNetIdHarness()
        successor.netId.legacySession = legacy
        return successor
    }

    func testTheSessionNetIdLeftIsCarriedOverRefreshedAndRemovedThere() async throws {
        let legacy = makeSuite()
        let before = try makeNetIdHarness()
        let (archive, legacyTokens) = try await legacyArchive(from: before)
        put(archive, in: legacy)

        let after = try makeSuccessor(of: before, legacy: legacy)
        let refreshesBefore = before.provider.requests(to: .token).count
        after.app.initialize(with: before.config)
        _ = await after.log.waitForEvents(2)
        XCTAssertEqual(after.log.transcript, ["L1.didFinishInitializationWithError(nil)", "L1.didFinishAuthentication(token)"])

        let stored = try await after.store.load()
        let adopted = try XCTUnwrap(stored, "the session is ours now")
        XCTAssertEqual(before.provider.requests(to: .token).count, refreshesBefore + 1, "one refresh, at once")
        XCTAssertNotEqual(adopted.accessToken, legacyTokens.accessToken, "the old access token is not trusted to be fresh")
        XCTAssertNotEqual(adopted.refreshToken, legacyTokens.refreshToken, "the provider rotated the carried-over refresh token")
        XCTAssertEqual(adopted.subject, "erika")
        XCTAssertEqual(before.provider.refreshTokenReuses, 0)
        XCTAssertNil(storedValue(legacy), "netID's copy is gone once ours is saved")

        // The adopted session works like any other.
        after.app.loadUserInfo()
        _ = await after.log.waitForEvents(3)
        XCTAssertEqual(after.log.transcript.last, "L1.didFetchUserInfo(sub=erika given_name=Erika)")
    }

    func testASessionOfAnotherClientIsLeftAlone() async throws {
        let legacy = makeSuite()
        let before = try makeNetIdHarness()
        let (archive, _) = try await legacyArchive(from: before, clientID: "another-client")
        put(archive, in: legacy)
        try await assertInitializesWithoutASession(before, legacy: legacy, leaving: archive)
    }

    func testASessionOfAnotherProviderIsLeftAlone() async throws {
        let legacy = makeSuite()
        let before = try makeNetIdHarness()
        _ = await before.signedIn()
        let loaded = try await before.store.load()
        let tokens = try XCTUnwrap(loaded)
        let archive = try AppAuthArchiver(issuer: URL(string: "https://broker.netid.de")!, clientID: before.config.clientId,
                                          refreshToken: tokens.refreshToken).authStateArchive()
        put(archive, in: legacy)
        try await assertInitializesWithoutASession(before, legacy: legacy, leaving: archive)
    }

    func testASessionThatDoesNotNameItsProviderIsLeftAlone() async throws {
        let legacy = makeSuite()
        let before = try makeNetIdHarness()
        var archiver = AppAuthArchiver(issuer: nil, clientID: before.config.clientId, refreshToken: "some-refresh-token")
        archiver.discoveryIssuer = nil
        let archive = try archiver.authStateArchive()
        put(archive, in: legacy)
        try await assertInitializesWithoutASession(before, legacy: legacy, leaving: archive)
    }

    /// Unreadable values: initialize goes on without a session, the value stays, nothing crashes.
    func testAnUnreadableValueIsLeftAloneAndInitializeGoesOn() async throws {
        let before = try makeNetIdHarness()
        let readable = try AppAuthArchiver(issuer: before.provider.issuer, clientID: before.config.clientId,
                                           refreshToken: "r").authStateArchive()
        let noRefreshToken = try AppAuthArchiver(issuer: before.provider.issuer, clientID: before.config.clientId,
                                                 refreshToken: nil).authStateArchive()
        let notAnAuthState = try NSKeyedArchiver.archivedData(withRootObject: ["refreshToken": "r"] as NSDictionary, requiringSecureCoding: true)
        let values: [(String, Any)] = [
            ("garbage", Data("not an archive".utf8)),
            ("truncated", readable.prefix(readable.count / 2)),
            ("empty", Data()),
            ("no refresh token", noRefreshToken),
            ("another root class", notAnAuthState),
            ("a string, not data", "authState"),
        ]
        for (label, value) in values {
            let legacy = makeSuite()
            put(value, in: legacy)
            let harness = try makeNetIdHarness()
            harness.netId.legacySession = legacy
            harness.app.initialize(with: before.config)
            harness.app.loadUserInfo()
            _ = await harness.log.waitForEvents(2)
            XCTAssertEqual(harness.log.transcript, ["L1.didFinishInitializationWithError(nil)", "L1.didFetchUserInfoWithError(NoAuth/UserInfo)"],
                           label)
            XCTAssertNotNil(storedValue(legacy), "\(label): left where it was")
        }
    }

    func testTheConfigurationCanOptOut() async throws {
        let legacy = makeSuite()
        let before = try makeNetIdHarness()
        let (archive, _) = try await legacyArchive(from: before)
        put(archive, in: legacy)
        var config = before.config
        config.carriesOverLegacySession = false
        try await assertInitializesWithoutASession(before, config: config, legacy: legacy, leaving: archive)
    }

    private func assertInitializesWithoutASession(_ before: NetIdHarness, config: NetIdConfig? = nil, legacy: NetIdLegacySession,
                                                  leaving archive: Data, file: StaticString = #filePath, line: UInt = #line) async throws {
        let after = try makeSuccessor(of: before, legacy: legacy)
        after.app.initialize(with: config ?? before.config)
        after.app.loadUserInfo()
        _ = await after.log.waitForEvents(2)
        XCTAssertEqual(after.log.transcript, ["L1.didFinishInitializationWithError(nil)", "L1.didFetchUserInfoWithError(NoAuth/UserInfo)"],
                       file: file, line: line)
        let stored = try await after.store.load()
        XCTAssertNil(stored, "nothing adopted", file: file, line: line)
        XCTAssertEqual(storedValue(legacy) as? Data, archive, "netID's copy is left alone", file: file, line: line)
    }
}
