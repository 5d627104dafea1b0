import ClientTestSupport
import Foundation
import SessionCore
import SessionTesting
import XCTest

final class RefreshTests: XCTestCase {
    private var provider: FakeProvider!
    private var store: RecordingStore!
    private var client: SessionClient!
    private var initial: SessionTokens!

    override func setUp() async throws {
        provider = try FakeProvider()
        store = RecordingStore()
        client = try makeClient(provider, store: store)
        initial = try await client.signIn(agent: provider)
    }

    private var refreshRequests: [HTTPRequest] {
        provider.requests(to: "/token").filter { FakeProvider.form($0)["grant_type"] == "refresh_token" }
    }

    /// Moves the clock to 30 s before the access token expires: inside the 60 s leeway.
    private func expireSoon() { provider.clock.advance(by: 3600 - 30) }

    /// Makes the token endpoint signal `arrived` when a request comes in and answer only after `gate`.
    private func holdTokenResponses() -> (arrived: Signal, gate: Signal) {
        let arrived = Signal(), gate = Signal()
        let fake = provider!
        provider.edit { settings in
            settings.handlers["/token"] = { request in
                await arrived.raise()
                await gate.wait()
                return try fake.defaultResponse(request)
            }
        }
        return (arrived, gate)
    }

    func testAFreshTokenIsReturnedWithoutRefreshing() async throws {
        let tokens = try await client.validTokens()
        XCTAssertEqual(tokens, initial)
        XCTAssertTrue(refreshRequests.isEmpty)
    }

    func testRotatedRefreshTokenIsStoredBeforeRefreshReturns() async throws {
        expireSoon()
        let refreshed = try await client.validTokens()
        XCTAssertNotEqual(refreshed.refreshToken, initial.refreshToken)
        XCTAssertNotEqual(refreshed.accessToken, initial.accessToken)
        XCTAssertEqual(store.contents, refreshed, "the store holds the rotated tokens by the time the caller has them")
        XCTAssertEqual(store.saved.last, refreshed)
        XCTAssertEqual(FakeProvider.form(try XCTUnwrap(refreshRequests.first))["refresh_token"], initial.refreshToken)
        XCTAssertEqual(refreshed.subject, FakeProvider.subject)
    }

    func testANonRotatingProviderKeepsTheRefreshToken() async throws {
        provider.edit { $0.rotateRefreshTokens = false; $0.refreshIncludesIDToken = false }
        let refreshed = try await client.refresh()
        XCTAssertEqual(refreshed.refreshToken, initial.refreshToken)
        XCTAssertEqual(refreshed.idToken, initial.idToken)
    }

    func testOneHundredConcurrentCallersCauseExactlyOneRefresh() async throws {
        expireSoon()
        let (arrived, gate) = holdTokenResponses()
        let client = self.client!
        let results = try await withThrowingTaskGroup(of: SessionTokens.self) { group in
            for _ in 0..<100 { group.addTask { try await client.validTokens() } }
            await arrived.wait()
            await gate.raise()
            return try await group.reduce(into: [SessionTokens]()) { $0.append($1) }
        }
        XCTAssertEqual(results.count, 100)
        XCTAssertEqual(Set(results.map(\.accessToken)).count, 1, "every caller gets the same refreshed tokens")
        XCTAssertEqual(refreshRequests.count, 1)
    }

    func testACallerWhoseViewWentStaleDoesNotRefreshAgain() async throws {
        // The caller checks expiry, then waits its turn for the refresh flight; by the time the
        // flight runs, another caller's refresh has landed. The clock below plays that out: the
        // first reading says "expiring", the second (inside the flight) says "fresh".
        let clock = ScriptedClock(base: provider.clock, offsets: [3600 - 30, 0])
        let stale = SessionClient(configuration: client.configuration, store: store, transport: provider, clock: clock)
        _ = try await stale.loadStoredSession()
        let before = refreshRequests.count
        let tokens = try await stale.validTokens()
        XCTAssertEqual(tokens, initial)
        XCTAssertEqual(refreshRequests.count, before, "no second refresh for tokens that are fresh by then")
    }

    func testARefusedRefreshClearsTheSessionAndRequiresSignIn() async throws {
        provider.edit { $0.handlers["/token"] = { _ in FakeProvider.json(["error": "invalid_grant", "error_description": "revoked"], status: 400) } }
        let error = await assertSessionError(.reauthenticationRequired, process: .authentication) { try await self.client.refresh() }
        XCTAssertEqual(error?.oauthError, "invalid_grant")
        XCTAssertNil(store.contents)
        let tokens = await client.tokens
        XCTAssertNil(tokens)
    }

    func testAnUncertainOutcomeNeverReplaysTheOldRefreshToken() async throws {
        provider.edit { $0.handlers["/token"] = { _ in throw HTTPTransportError(.timedOut, detail: "no answer") } }
        await assertSessionError(.reauthenticationRequired) { try await self.client.refresh() }
        XCTAssertNil(store.contents)
        await assertSessionError(.notAuthenticated) { try await self.client.refresh() }
        XCTAssertEqual(refreshRequests.count, 1)
    }

    func testAMalformedSuccessCountsAsUncertain() async throws {
        provider.edit { $0.handlers["/token"] = { _ in HTTPResponse(status: 200, body: Data("{".utf8)) } }
        await assertSessionError(.reauthenticationRequired) { try await self.client.refresh() }
        XCTAssertNil(store.contents)
    }

    func testARefreshThatNeverLeftKeepsTheSession() async throws {
        provider.edit { $0.handlers["/token"] = { _ in throw HTTPTransportError(.cannotConnect, detail: "offline") } }
        await assertSessionError(.cannotConnect) { try await self.client.refresh() }
        XCTAssertEqual(store.contents, initial)
        provider.edit { $0.handlers["/token"] = { _ in HTTPResponse(status: 503) } }
        await assertSessionError(.serverError) { try await self.client.refresh() }
        XCTAssertEqual(store.contents, initial)
        provider.edit { $0.handlers["/token"] = nil }
        let refreshed = try await client.refresh()
        XCTAssertNotEqual(refreshed.refreshToken, initial.refreshToken)
    }

    func testTheStoreHoldsTheSessionMarkedWhileARefreshIsOnItsWay() async throws {
        let (arrived, gate) = holdTokenResponses()
        let client = self.client!
        let refresh = Task { try await client.refresh() }
        await arrived.wait()
        XCTAssertEqual(store.contents, initial.marked(.refresh), "marked before the request went out")
        await gate.raise()
        let refreshed = try await refresh.value
        XCTAssertEqual(store.contents, refreshed)
        XCTAssertNil(refreshed.inFlight)
    }

    func testASessionStoredMidRefreshIsNotRestored() async throws {
        // What an app killed between the provider's answer and the save leaves behind.
        let interrupted = RecordingStore(initial.marked(.refresh))
        let logger = CapturingLogger()
        let client = try makeClient(provider, store: interrupted, logger: logger)
        let lost = Locked<[SessionError]>([])
        await client.setEventHandler { event in
            if case .sessionLost(let error) = event { lost.withLock { $0.append(error) } }
        }
        let restored = try await client.loadStoredSession()
        XCTAssertNil(restored)
        // Lost, not absent: the app can tell its user why they must sign in again.
        XCTAssertEqual(lost.value.map(\.code), [.reauthenticationRequired])
        XCTAssertTrue(lost.value.first?.message.contains("a refresh was interrupted") == true, "\(lost.value)")
        XCTAssertNil(interrupted.contents, "the store no longer holds it")
        XCTAssertTrue(refreshRequests.isEmpty, "its refresh token, perhaps retired, was not sent")
        XCTAssertTrue(logger.lines.contains { $0.contains("waiting for a refresh answer") }, "\(logger.lines)")
        let revoking = RecordingStore(initial.marked(.revocation))
        let second = try await makeClient(provider, store: revoking).restoreUsableSession()
        XCTAssertNil(second, "nor is one stored mid-revocation")
    }

    func testAStoreThatCannotMarkTheRefreshStopsItBeforeAnythingIsSent() async throws {
        store.failNextSaves()
        await assertSessionError(.storageFailed) { try await self.client.refresh() }
        XCTAssertTrue(refreshRequests.isEmpty, "the refresh token was not sent")
        let tokens = await client.tokens
        XCTAssertEqual(tokens, initial, "nothing was spent: the session stays in memory")
    }

    func testAFailedStoreWriteSurfacesAndTheOldRefreshTokenIsNeverReplayed() async throws {
        store.failSaves(afterSucceeding: 1) // the in-flight mark, then not the new tokens
        await assertSessionError(.storageFailed) { try await self.client.refresh() }
        let tokens = await client.tokens
        XCTAssertNil(tokens, "tokens that could not be saved are not kept")
        await assertSessionError(.notAuthenticated) { try await self.client.validTokens() }
        XCTAssertEqual(refreshRequests.count, 1)
    }

    func testAStoreThatCanNeitherSaveNorClearIsLoggedAsAnErrorWithoutSecrets() async throws {
        let logger = CapturingLogger()
        let client = try makeClient(provider, store: store, logger: logger)
        let tokens = try await client.signIn(agent: provider)
        store.failSaves(afterSucceeding: 1)
        store.failNextClears()
        await assertSessionError(.storageFailed) { try await client.refresh() }
        let errors = logger.lines.filter { $0.hasPrefix("[error]") }
        XCTAssertTrue(errors.contains { $0.contains("could not be cleared") && $0.contains("read-only disk") }, "\(errors)")
        XCTAssertEqual(store.contents, tokens.marked(.refresh), "what stays on disk is the session before the refresh, marked")
        for line in logger.lines {
            XCTAssertFalse(line.contains(tokens.accessToken) || line.contains(tokens.refreshToken ?? "-"), line)
        }
    }

    func testRestoringAUsableSessionRefreshesOnlyWhatNeedsIt() async throws {
        func restored() async throws -> SessionTokens? {
            try await makeClient(provider, store: store).restoreUsableSession()
        }
        let fresh = try await restored()
        XCTAssertEqual(fresh, initial, "a fresh stored session comes back as it is")
        XCTAssertEqual(refreshRequests.count, 0)

        expireSoon()
        let restoredAfterExpiry = try await restored()
        let renewed = try XCTUnwrap(restoredAfterExpiry)
        XCTAssertNotEqual(renewed.accessToken, initial.accessToken, "one about to expire is refreshed first")
        XCTAssertEqual(refreshRequests.count, 1)
        XCTAssertEqual(store.contents, renewed)

        provider.clock.advance(by: 3600)
        provider.edit { $0.handlers["/token"] = { _ in HTTPResponse(status: 400, body: Data(#"{"error":"invalid_grant"}"#.utf8)) } }
        await assertSessionError(.reauthenticationRequired) { try await restored() }
        XCTAssertNil(store.contents, "a refused refresh clears the store")
        let nothing = try await restored()
        XCTAssertNil(nothing)
    }

    func testSignOutDuringAnInFlightRefreshLeavesNothingStored() async throws {
        let (arrived, gate) = holdTokenResponses()
        let client = self.client!
        let refresh = Task { try await client.refresh() }
        await arrived.wait()
        try await client.signOut()
        await gate.raise()
        await assertSessionError(.sessionEnded) { try await refresh.value }
        XCTAssertNil(store.contents)
        let tokens = await client.tokens
        XCTAssertNil(tokens)
    }

    func testAnExpiredTokenWithoutRefreshTokenRequiresSignIn() async throws {
        provider.edit { $0.handlers["/token"] = { _ in FakeProvider.json(["access_token": "a", "token_type": "Bearer", "expires_in": 60]) } }
        let client = try makeClient(provider, store: store)
        _ = try await client.signIn(scopes: ["permission_management"], agent: provider)
        provider.clock.advance(by: 61)
        await assertSessionError(.reauthenticationRequired) { try await client.validTokens() }
        XCTAssertNil(store.contents)
    }

    func testARefreshedIDTokenForAnotherSubjectEndsTheSession() async throws {
        provider.edit { $0.editIDTokenClaims = { $0["sub"] = "someone-else" } }
        let error = await assertSessionError(.reauthenticationRequired) { try await self.client.refresh() }
        XCTAssertTrue(error?.message.contains("idTokenSubjectMismatch") == true)
        XCTAssertNil(store.contents)
    }
}

/// A clock that adds the next scripted offset to `base` at each reading (the last one repeats).
final class ScriptedClock: SessionClock, Sendable {
    private let base: SessionClock
    private let offsets: Locked<[TimeInterval]>

    init(base: SessionClock, offsets: [TimeInterval]) {
        self.base = base
        self.offsets = Locked(offsets)
    }

    func now() -> Date {
        let offset = offsets.withLock { offsets in offsets.count > 1 ? offsets.removeFirst() : offsets.first ?? 0 }
        return base.now().addingTimeInterval(offset)
    }

    /// A provider whose access tokens live 30 s, under the default 60 s leeway: the leeway is at
    /// most half the lifetime, so the token is used for 15 s, not refreshed at every use.
    func testALeewayLongerThanTheTokensLifetimeIsHalfTheLifetime() async throws {
        let clock = ManualClock()
        let provider = try LocalProvider(clock: clock) { $0.accessTokenLifetime = 30 }
        defer { provider.stop() }
        let logger = CapturingLogger()
        let client = SessionClient(configuration: try provider.configuration(), transport: CurlTransport(timeout: 5), clock: clock, logger: logger)
        let signedIn = try await client.signIn(agent: HeadlessUserAgent())
        XCTAssertEqual(signedIn.lifetime, 30)
        for _ in 0..<5 {
            let tokens = try await client.validTokens()
            XCTAssertEqual(tokens.accessToken, signedIn.accessToken)
            clock.advance(by: 2.5)
        }
        XCTAssertEqual(provider.requests(to: .token).count, 1, "five uses in 12.5 s, no refresh: only the code exchange")
        clock.advance(by: 3)
        _ = try await client.validTokens()
        XCTAssertEqual(provider.requests(to: .token).count, 2, "15 s before expiry, it is refreshed")
        XCTAssertEqual(logger.lines.filter { $0.contains("less than the refresh leeway") }.count, 1, "said once: \(logger.lines)")
    }
}
