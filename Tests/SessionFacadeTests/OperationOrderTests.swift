import Dispatch
import Foundation
import SessionCore
import SessionFacadeTesting
import SessionPermissions
import SessionFacade
import SessionTesting
import XCTest

/// Fetches, queueing and endSession: rules C2, C3, C4, C7, C8.
final class OperationOrderTests: XCTestCase {
    private func signedIn() async throws -> FacadeHarness {
        let facade = try makeFacade()
        await facade.initialize()
        await facade.signIn()
        return facade
    }

    func testEachFetchSucceeding_C2_C3() async throws {
        let facade = try await signedIn()
        let log = facade.log
        facade.service.fetchUserInfo(completion: log.completion("fetchUserInfo"))
        facade.service.fetchPermissions(identifiers: [.tagProtocolIdentifier], completion: log.completion("fetchPermissions"))
        facade.service.updatePermissions(PermissionUpdate(idConsent: .invalid), identifiers: [.tagProtocolIdentifier],
                                         completion: log.completion("updatePermissions"))
        await facade.assertTranscript(after: FacadeHarness.signedIn, [
            "A.didFetchUserInfo(sub=erika)", "completion.fetchUserInfo(sub=erika)",
            "A.didFetchPermissions(PERMISSIONS_FOUND)", "completion.fetchPermissions(PERMISSIONS_FOUND)",
            "A.didUpdatePermissions(tpid=tpid-erika)", "completion.updatePermissions(tpid=tpid-erika)",
        ])
        assertOnCallbackQueue(log)
    }

    func testEachFetchFailing() async throws {
        let facade = try await signedIn()
        let log = facade.log
        facade.provider.inject(.status(503), at: .userInfo)
        facade.provider.inject(.status(403, body: #"{"status_code":"TOKEN_ERROR"}"#), at: .permissionRead)
        facade.provider.inject(.status(400, body: #"{"status_code":"TAPP_NOT_ALLOWED"}"#), at: .permissionWrite)
        facade.service.fetchUserInfo(completion: log.completion("fetchUserInfo"))
        facade.service.fetchPermissions(completion: log.completion("fetchPermissions"))
        facade.service.updatePermissions(PermissionUpdate(idConsent: .valid), completion: log.completion("updatePermissions"))
        await facade.assertTranscript(after: FacadeHarness.signedIn, [
            "A.didFetchUserInfoWithError(serverError)", "completion.fetchUserInfo(serverError)",
            "A.didFetchPermissionsWithError(TOKEN_ERROR, permissionRequestFailed)", "completion.fetchPermissions(permissionRequestFailed)",
            "A.didUpdatePermissionsWithError(TAPP_NOT_ALLOWED, permissionRequestFailed)", "completion.updatePermissions(permissionRequestFailed)",
        ])
    }

    func testCallsQueuedBehindASlowOperationRunInCallOrder_C4() async throws {
        let facade = try await signedIn()
        let log = facade.log
        let before = facade.provider.requestLog.count
        facade.provider.inject(.delay(0.4), at: .userInfo)
        facade.service.fetchUserInfo(completion: log.completion("fetchUserInfo"))
        facade.service.fetchPermissions(completion: log.completion("fetchPermissions"))
        facade.service.fetchUserInfo(completion: log.completion("fetchUserInfo"))
        await facade.assertTranscript(after: FacadeHarness.signedIn, [
            "A.didFetchUserInfo(sub=erika)", "completion.fetchUserInfo(sub=erika)",
            "A.didFetchPermissions(PERMISSIONS_FOUND)", "completion.fetchPermissions(PERMISSIONS_FOUND)",
            "A.didFetchUserInfo(sub=erika)", "completion.fetchUserInfo(sub=erika)",
        ])
        XCTAssertEqual(facade.authorizedRequestPaths(after: before), ["/userinfo", "/permissions/read", "/userinfo"], "one operation at a time, in call order")
    }

    func testAnExpiredTokenIsRefreshedBeforeTheOperation_C8_C15() async throws {
        let facade = try await signedIn()
        let before = facade.provider.requestLog.count
        let signedInEvents = facade.log.recorded.count
        facade.clock.advance(by: 3600)
        facade.service.fetchUserInfo(completion: facade.log.completion("fetchUserInfo"))
        _ = await facade.log.waitForEvents(signedInEvents + 3)
        // C15: the refresh is heard before the outcome of the operation that needed it.
        XCTAssertEqual(facade.transcript(after: signedInEvents),
                       ["A.didRefreshSession(token)", "A.didFetchUserInfo(sub=erika)", "completion.fetchUserInfo(sub=erika)"])
        // An hour on, the key set has outlived its lifetime too: the refreshed ID token's check fetches it again.
        XCTAssertEqual(facade.provider.requestLog.dropFirst(before).map(\.path), ["/token", "/jwks", "/userinfo"])
    }

    func testShortLivedTokensAreNotRefreshedAtEveryOperation_C8() async throws {
        // 30 s tokens under the default 60 s leeway: the leeway is 15 s, half their lifetime.
        let facade = try makeFacade { $0.accessTokenLifetime = 30 }
        await facade.initialize()
        await facade.signIn()
        let tokenRequests = facade.provider.requests(to: .token).count
        let before = facade.log.recorded.count
        facade.clock.advance(by: 10)
        facade.service.fetchUserInfo(completion: facade.log.completion("fetchUserInfo"))
        _ = await facade.log.waitForEvents(before + 2)
        XCTAssertEqual(facade.provider.requests(to: .token).count, tokenRequests, "20 s left: used as it is")
        facade.clock.advance(by: 6)
        facade.service.fetchUserInfo(completion: facade.log.completion("fetchUserInfo"))
        _ = await facade.log.waitForEvents(before + 5)
        XCTAssertEqual(facade.transcript(after: before + 2).first, "A.didRefreshSession(token)", "14 s left: refreshed first")
        XCTAssertEqual(facade.provider.requests(to: .token).count, tokenRequests + 1)
    }

    /// A token the provider revoked behind the client's back: the operation refreshes once and
    /// succeeds, and listeners hear the refresh first, as for a token that expired.
    func testARevokedTokenIsRefreshedAndTheOperationSucceeds_C15() async throws {
        let facade = try await signedIn()
        let stored = try await facade.store.load()
        facade.provider.revoke(accessToken: try XCTUnwrap(stored).accessToken)
        let signedInEvents = facade.log.recorded.count
        facade.service.fetchUserInfo(completion: facade.log.completion("fetchUserInfo"))
        _ = await facade.log.waitForEvents(signedInEvents + 3)
        XCTAssertEqual(facade.transcript(after: signedInEvents),
                       ["A.didRefreshSession(token)", "A.didFetchUserInfo(sub=erika)", "completion.fetchUserInfo(sub=erika)"])
    }

    func testExpireAccessTokenIsOrderedAndReportedOnlyToItsCompletion_C4_C8_C15() async throws {
        let facade = try makeFacade()
        facade.service.expireAccessToken(completion: facade.log.completion("expireAccessToken"))
        _ = await facade.log.waitForEvents(1)
        await facade.initialize()
        await facade.signIn()
        let signedInEvents = facade.log.recorded.count
        facade.service.expireAccessToken(completion: facade.log.completion("expireAccessToken"))
        facade.service.fetchUserInfo(completion: facade.log.completion("fetchUserInfo"))
        _ = await facade.log.waitForEvents(signedInEvents + 4)
        XCTAssertEqual(facade.log.transcript.first, "completion.expireAccessToken(notInitialized)")
        XCTAssertEqual(facade.transcript(after: signedInEvents), [
            "completion.expireAccessToken(success)", "A.didRefreshSession(token)", "A.didFetchUserInfo(sub=erika)",
            "completion.fetchUserInfo(sub=erika)",
        ])
        XCTAssertEqual(facade.provider.requestLog.suffix(2).map(\.path), ["/token", "/userinfo"], "the expired token was refreshed first")
    }

    func testASignOutInAnotherProcessEndsTheSessionAtTheNextOperation_C15() async throws {
        // The service and a logout command on one session file, as two processes are.
        let provider = try LocalProvider(clock: SystemClock())
        defer { provider.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("facade-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let configuration = try provider.configuration()
        let service = SessionService(store: { try FileTokenStore(configuration: $0, directory: directory) }, transport: CurlTransport(timeout: 5))
        service.callbackQueue = DispatchQueue(label: FacadeHarness.queueLabel)
        let log = CallbackLog()
        let listener = RecordingListener("A", log: log)
        service.registerListener(listener)
        service.initialize(configuration, permissionCenter: try provider.permissionCenter, completion: log.completion("initialize"))
        service.getAuthorization(flow: .login, agent: HeadlessUserAgent(), completion: log.completion("getAuthorization"))
        _ = await log.waitForEvents(4)

        let logout = SessionClient(configuration: configuration, store: try FileTokenStore(configuration: configuration, directory: directory),
                                   transport: CurlTransport(timeout: 5))
        try await logout.signOut(revokeTokens: true)
        let before = log.recorded.count
        service.fetchUserInfo(completion: log.completion("fetchUserInfo"))
        _ = await log.waitForEvents(before + 3)
        // C15: the loss is heard before the outcome of the operation that met it, though the access token was fresh.
        XCTAssertEqual(Array(log.transcript.dropFirst(before)), [
            "A.didLoseSession(reauthenticationRequired)",
            "A.didFetchUserInfoWithError(reauthenticationRequired)", "completion.fetchUserInfo(reauthenticationRequired)",
        ])
        XCTAssertEqual(provider.requests(to: .userInfo).count, 0, "the revoked session's token was not sent")
        withExtendedLifetime(listener) {}
    }

    func testARefusedRefreshFailsTheOperationAndClearsTheSession_C8_C15() async throws {
        let facade = try await signedIn()
        let signedInEvents = facade.log.recorded.count
        facade.clock.advance(by: 3600)
        facade.provider.inject(.status(400, body: #"{"error":"invalid_grant"}"#), at: .token)
        facade.service.fetchUserInfo(completion: facade.log.completion("fetchUserInfo"))
        _ = await facade.log.waitForEvents(signedInEvents + 3)
        // C15: the loss is heard before the outcome of the operation that met it.
        XCTAssertEqual(facade.transcript(after: signedInEvents), [
            "A.didLoseSession(reauthenticationRequired)",
            "A.didFetchUserInfoWithError(reauthenticationRequired)", "completion.fetchUserInfo(reauthenticationRequired)",
        ])
        let stored = try await facade.store.load()
        XCTAssertNil(stored)
    }

    /// A stored DPoP session whose key cannot be used (here: its bytes are no key; elsewhere: a
    /// Secure Enclave reference on another device) is lost like a refused refresh: heard first,
    /// then the operation's error, nothing sent unbound, the store cleared.
    func testADPoPSessionWhoseKeyIsGoneIsLostBeforeTheOperationFails_C5_C15() async throws {
        let facade = try makeFacade { $0.offersDPoP = true }
        let configuration = try facade.provider.configuration(dpop: .required)
        let client = SessionClient(configuration: configuration, store: facade.store, transport: CurlTransport(timeout: 5), clock: facade.clock)
        let tokens = try await client.signIn(scopes: AuthFlow.loginPermission.scopes, agent: HeadlessUserAgent())
        XCTAssertTrue(tokens.isSenderConstrained)
        try await facade.store.save(tokens.bound(to: .pkcs8(Data("no longer a key".utf8))))

        facade.service.initialize(configuration, permissionCenter: facade.permissionCenter, completion: facade.log.completion("initialize"))
        facade.service.fetchUserInfo(completion: facade.log.completion("fetchUserInfo"))
        _ = await facade.log.waitForEvents(6)
        XCTAssertEqual(facade.log.transcript, [
            "A.didFinishInitializationWithError(nil)", "completion.initialize(success)", "A.didFinishAuthentication(token)",
            "A.didLoseSession(reauthenticationRequired)",
            "A.didFetchUserInfoWithError(reauthenticationRequired)", "completion.fetchUserInfo(reauthenticationRequired)",
        ])
        XCTAssertEqual(facade.provider.requests(to: .userInfo).count, 0, "the bound token was not sent without its key")
        let stored = try await facade.store.load()
        XCTAssertNil(stored)
    }

    func testEndSessionJumpsTheQueue_C7() async throws {
        let facade = try makeFacade()
        let (urls, sink) = AsyncStream.makeStream(of: URL.self)
        facade.service.authorizationURLHandler = { sink.yield($0) }
        await facade.initialize()
        await facade.signIn()
        let log = facade.log
        facade.service.getAuthorization(completion: log.completion("getAuthorization"))
        var iterator = urls.makeAsyncIterator()
        _ = await iterator.next() // the authorization is in progress, waiting for the browser
        facade.service.fetchUserInfo(completion: log.completion("fetchUserInfo"))
        facade.service.fetchPermissions(completion: log.completion("fetchPermissions"))
        facade.service.endSession(completion: log.completion("endSession"))
        facade.service.fetchUserInfo(completion: log.completion("fetchUserInfo"))
        await facade.assertTranscript(after: FacadeHarness.signedIn, [
            "A.didFinishAuthenticationWithError(sessionEnded)", "completion.getAuthorization(sessionEnded)",
            "A.didFetchUserInfoWithError(sessionEnded)", "completion.fetchUserInfo(sessionEnded)",
            "A.didFetchPermissionsWithError(UNKNOWN, sessionEnded)", "completion.fetchPermissions(sessionEnded)",
            "A.didEndSession()", "completion.endSession(success)",
            "A.didFetchUserInfoWithError(notAuthenticated)", "completion.fetchUserInfo(notAuthenticated)",
        ]) // after didEndSession the service stays initialized, without a session
        let stored = try await facade.store.load()
        XCTAssertNil(stored)
        XCTAssertFalse(facade.service.resumeSession(facade.configuration.redirectURI), "the ended authorization no longer waits")
    }

    func testAnOperationAlreadyRunningFinishesBeforeEndSessionAndTokenCallsAreDropped_C7() async throws {
        let facade = try await signedIn()
        let log = facade.log
        facade.provider.inject(.delay(0.3), at: .userInfo)
        facade.service.fetchUserInfo(completion: log.completion("fetchUserInfo"))
        facade.service.currentTokens(completion: log.completion("currentTokens"))
        facade.service.endSession(completion: log.completion("endSession"))
        await facade.assertTranscript(after: FacadeHarness.signedIn, [
            "A.didFetchUserInfo(sub=erika)", "completion.fetchUserInfo(sub=erika)",
            "completion.currentTokens(sessionEnded)",
            "A.didEndSession()", "completion.endSession(success)",
        ])
    }

    func testEndSessionWithAFailingRevocationKeepsTheSession_C7() async throws {
        let facade = try await signedIn()
        let stored = try await facade.store.load()
        facade.provider.inject(.status(503), at: .revocation)
        facade.service.endSession(revokeTokens: true, completion: facade.log.completion("endSession"))
        facade.service.fetchUserInfo(completion: facade.log.completion("fetchUserInfo"))
        await facade.assertTranscript(after: FacadeHarness.signedIn, [
            "A.didEndSessionWithError(serverError)", "completion.endSession(serverError)",
            "A.didFetchUserInfo(sub=erika)", "completion.fetchUserInfo(sub=erika)",
        ])
        let after = try await facade.store.load()
        XCTAssertEqual(after, stored)
    }

    func testEndSessionWithRevocationLeavesNothing_C7() async throws {
        let facade = try await signedIn()
        let loaded = try await facade.store.load()
        let tokens = try XCTUnwrap(loaded)
        facade.service.endSession(revokeTokens: true, completion: facade.log.completion("endSession"))
        await facade.assertTranscript(after: FacadeHarness.signedIn, ["A.didEndSession()", "completion.endSession(success)"])
        XCTAssertFalse(facade.provider.isActive(refreshToken: try XCTUnwrap(tokens.refreshToken)))
        let after = try await facade.store.load()
        XCTAssertNil(after)
    }
}
