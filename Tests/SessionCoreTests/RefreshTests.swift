import ClientTestSupport
import Foundation
import SessionCore
import SessionTesting
import XCTest

/// Refresh (RFC 6749 §6) with rotation, against LocalProvider over loopback.
final class RefreshTests: XCTestCase {
    private var harness: LocalHarness!
    private var client: SessionClient { harness.client }
    private var store: RecordingStore { harness.store }
    private var initial: SessionTokens!

    override func setUp() async throws {
        harness = try makeLocalHarness()
        initial = try await harness.signIn(.login)
    }

    private var refreshRequests: [LocalProvider.LoggedRequest] {
        harness.provider.requests(to: .token).filter { $0.parameters["grant_type"] == "refresh_token" }
    }

    /// A client of the harness's provider on `store`, as another launch of the app makes it.
    private func launch(store: TokenStore, logger: SessionLogger = SilentLogger()) -> SessionClient {
        SessionClient(configuration: harness.client.configuration, store: store, transport: CurlTransport(timeout: 5),
                      clock: harness.clock, logger: logger)
    }

    /// Moves the clock to 30 s before the access token expires: inside the 60 s leeway.
    private func expireSoon() { harness.clock.advance(by: 3600 - 30) }

    /// Holds the token endpoint's next answer: `arrived` is raised once a request has come in,
    /// and the provider answers it once the test opens `gate` (the provider's connection thread
    /// waits, not the client's).
    private func holdTokenResponses() -> (arrived: Signal, gate: Gate) {
        let arrived = Signal(), gate = Gate()
        harness.provider.whenReceiving(.token) {
            Task { await arrived.raise() }
            gate.wait()
        }
        return (arrived, gate)
    }

    /// A gate a provider thread waits at until the test opens it.
    final class Gate: Sendable {
        private let opened = DispatchSemaphore(value: 0)
        private let isOpen = Locked(false)

        func wait() {
            guard !isOpen.value else { return }
            opened.wait()
            opened.signal()
        }

        func open() {
            isOpen.withLock { $0 = true }
            opened.signal()
        }
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
        XCTAssertEqual(try XCTUnwrap(refreshRequests.first).parameters["refresh_token"], initial.refreshToken)
        XCTAssertEqual(refreshed.subject, LocalProvider.User.erika.subject)
        XCTAssertFalse(harness.provider.isActive(refreshToken: try XCTUnwrap(initial.refreshToken)), "the old one is retired")
    }

    func testANonRotatingProviderKeepsTheRefreshToken() async throws {
        // A refresh answer with neither a new refresh token nor a new ID token.
        harness.provider.inject(.status(200, body: #"{"access_token":"new-access","token_type":"Bearer","expires_in":3600}"#), at: .token)
        let refreshed = try await client.refresh()
        XCTAssertEqual(refreshed.accessToken, "new-access")
        XCTAssertEqual(refreshed.refreshToken, initial.refreshToken)
        XCTAssertEqual(refreshed.idToken, initial.idToken)
    }

    func testOneHundredConcurrentCallersCauseExactlyOneRefresh() async throws {
        expireSoon()
        let (arrived, gate) = holdTokenResponses()
        let client = self.client
        let results = try await withThrowingTaskGroup(of: SessionTokens.self) { group in
            for _ in 0..<100 { group.addTask { try await client.validTokens() } }
            await arrived.wait()
            gate.open()
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
        let clock = ScriptedClock(base: harness.clock, offsets: [3600 - 30, 0])
        let stale = SessionClient(configuration: client.configuration, store: store, transport: CurlTransport(timeout: 5), clock: clock)
        _ = try await stale.loadStoredSession()
        let before = refreshRequests.count
        let tokens = try await stale.validTokens()
        XCTAssertEqual(tokens, initial)
        XCTAssertEqual(refreshRequests.count, before, "no second refresh for tokens that are fresh by then")
    }

    func testARefusedRefreshClearsTheSessionAndRequiresSignIn() async throws {
        harness.provider.inject(.status(400, body: #"{"error":"invalid_grant","error_description":"revoked"}"#), at: .token)
        let error = await assertSessionError(.reauthenticationRequired, process: .authentication) { try await self.client.refresh() }
        XCTAssertEqual(error?.oauthError, "invalid_grant")
        XCTAssertNil(store.contents)
        let tokens = await client.tokens
        XCTAssertNil(tokens)
    }

    func testAnUncertainOutcomeNeverReplaysTheOldRefreshToken() async throws {
        // The request went out, and the connection broke before an answer: the provider may have
        // rotated the token, so it is never sent again.
        harness.provider.inject(.dropConnection, at: .token)
        await assertSessionError(.reauthenticationRequired) { try await self.client.refresh() }
        XCTAssertNil(store.contents)
        await assertSessionError(.notAuthenticated) { try await self.client.refresh() }
        XCTAssertEqual(refreshRequests.count, 1)
    }

    func testAMalformedSuccessCountsAsUncertain() async throws {
        harness.provider.inject(.malformedBody, at: .token)
        await assertSessionError(.reauthenticationRequired) { try await self.client.refresh() }
        XCTAssertNil(store.contents)
    }

    func testAServerErrorOrAnUnreachableProviderKeepsTheSession() async throws {
        harness.provider.inject(.status(503), at: .token)
        await assertSessionError(.serverError) { try await self.client.refresh() }
        XCTAssertEqual(store.contents, initial)
        let refreshed = try await client.refresh()
        XCTAssertNotEqual(refreshed.refreshToken, initial.refreshToken)
        // A provider that cannot be reached at all: nothing was sent, nothing is lost.
        harness.provider.stop()
        await harness.provider.waitUntilStopped()
        await assertSessionError(.cannotConnect) { try await self.client.refresh() }
        XCTAssertEqual(store.contents, refreshed)
    }

    func testTheStoreHoldsTheSessionMarkedWhileARefreshIsOnItsWay() async throws {
        let (arrived, gate) = holdTokenResponses()
        let client = self.client
        let refresh = Task { try await client.refresh() }
        await arrived.wait()
        XCTAssertEqual(store.contents, initial.marked(.refresh), "marked before the request went out")
        gate.open()
        let refreshed = try await refresh.value
        XCTAssertEqual(store.contents, refreshed)
        XCTAssertNil(refreshed.inFlight)
    }

    func testASessionStoredMidRefreshIsNotRestored() async throws {
        // What an app killed between the provider's answer and the save leaves behind.
        let interrupted = RecordingStore(initial.marked(.refresh))
        let logger = CapturingLogger()
        let client = launch(store: interrupted, logger: logger)
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
        let second = try await launch(store: revoking).restoreUsableSession()
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
        let client = launch(store: store, logger: logger)
        let tokens = try await client.signIn(agent: HeadlessUserAgent())
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
            try await launch(store: store).restoreUsableSession()
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

        harness.clock.advance(by: 3600)
        harness.provider.inject(.status(400, body: #"{"error":"invalid_grant"}"#), at: .token)
        await assertSessionError(.reauthenticationRequired) { try await restored() }
        XCTAssertNil(store.contents, "a refused refresh clears the store")
        let nothing = try await restored()
        XCTAssertNil(nothing)
    }

    func testSignOutDuringAnInFlightRefreshLeavesNothingStored() async throws {
        let (arrived, gate) = holdTokenResponses()
        let client = self.client
        let refresh = Task { try await client.refresh() }
        await arrived.wait()
        try await client.signOut()
        gate.open()
        await assertSessionError(.sessionEnded) { try await refresh.value }
        XCTAssertNil(store.contents)
        let tokens = await client.tokens
        XCTAssertNil(tokens)
    }

    func testAnExpiredTokenWithoutRefreshTokenRequiresSignIn() async throws {
        // A code exchange answered without a refresh token.
        harness.provider.inject(.status(200, body: #"{"access_token":"a","token_type":"Bearer","expires_in":60}"#), at: .token)
        let client = launch(store: store)
        _ = try await client.signIn(scopes: ["permission_management"], agent: HeadlessUserAgent())
        harness.clock.advance(by: 61)
        await assertSessionError(.reauthenticationRequired) { try await client.validTokens() }
        XCTAssertNil(store.contents)
    }

    /// A leeway as long as a number goes ("refresh as early as may be") works like any longer than
    /// the tokens' lifetime: half the lifetime, said once in the log.
    func testTheLongestLeewayIsHalfTheLifetimeToo() async throws {
        let clock = ManualClock()
        let provider = try LocalProvider(clock: clock) { $0.accessTokenLifetime = 30 }
        defer { provider.stop() }
        let logger = CapturingLogger()
        let client = SessionClient(configuration: try provider.configuration(refreshLeeway: .greatestFiniteMagnitude),
                                   transport: CurlTransport(timeout: 5), clock: clock, logger: logger)
        let signedIn = try await client.signIn(agent: HeadlessUserAgent())
        clock.advance(by: 10)
        let tokens = try await client.validTokens()
        XCTAssertEqual(tokens.accessToken, signedIn.accessToken, "15 s of its 30 are used")
        XCTAssertEqual(logger.lines.filter { $0.contains("less than the refresh leeway") }.count, 1, "said once: \(logger.lines)")
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
}
