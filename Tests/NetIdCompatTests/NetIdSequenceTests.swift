import Dispatch
import Foundation
import NetIdCompat
import SessionCore
import SessionFacade
import SessionTesting
import XCTest

/// netID's documented callback sequences (LEGACY_APIS.md), against LocalProvider over loopback.
final class NetIdSequenceTests: XCTestCase {
    private struct Setup {
        let provider: LocalProvider
        let netId: NetIdService
        let app: LegacyNetIdApp
        let log: CallbackLog
        let config: NetIdConfig
        let store: InMemoryTokenStore
    }

    private func makeSetup(store: InMemoryTokenStore = InMemoryTokenStore(), listeners: Int = 1) throws -> Setup {
        let provider = try LocalProvider(clock: SystemClock())
        addTeardownBlock { provider.stop() }
        let service = SessionService(store: { _ in store }, transport: URLSessionTransport(timeout: 5))
        let queue = DispatchQueue(label: "netid-tests.callbacks")
        CallbackLog.name(queue, "netid-tests.callbacks")
        service.callbackQueue = queue
        let netId = NetIdService(service: service)
        netId.authorizationAgent = HeadlessUserAgent()
        let log = CallbackLog()
        let app = LegacyNetIdApp(netIdService: netId) { log.record("L1", $0, $1) }
        for index in 1..<listeners {
            netId.registerListener(LegacyNetIdApp(netIdService: netId) { log.record("L\(index + 1)", $0, $1) })
        }
        let config = NetIdConfig(clientId: "session-demo", redirectUri: "com.example.sessiondemo:/callback", claims: nil, promptWeb: nil,
                                 loginLayerConfig: nil, permissionLayerConfig: nil, issuer: provider.issuer,
                                 permissionCenter: try provider.permissionCenter)
        return Setup(provider: provider, netId: netId, app: app, log: log, config: config, store: store)
    }

    /// Initializes, signs in, and returns how many events that took.
    private func signedIn(_ setup: Setup) async -> Int {
        setup.app.initialize(with: setup.config)
        setup.app.authorize(.LoginPermission)
        return await setup.log.waitForEvents(2).count
    }

    func testInitializeWithNothingStoredAndASecondInitializeIsSilent() async throws {
        let setup = try makeSetup()
        setup.app.initialize(with: setup.config)
        setup.netId.initialize(setup.config)
        setup.app.loadUserInfo()
        _ = await setup.log.waitForEvents(2)
        XCTAssertEqual(setup.log.transcript, [
            "L1.didFinishInitializationWithError(nil)",
            "L1.didFetchUserInfoWithError(NoAuth/UserInfo)",
        ])
        XCTAssertEqual(setup.app.currentConfig?.clientId, "session-demo")
    }

    func testADiscoveryFailureIsInvalidDiscoveryDocumentInConfiguration() async throws {
        let setup = try makeSetup()
        setup.provider.inject(.status(500), at: .discovery)
        setup.app.initialize(with: setup.config)
        _ = await setup.log.waitForEvents(1)
        XCTAssertEqual(setup.log.transcript, ["L1.didFinishInitializationWithError(InvalidDiscoveryDocument/Configuration)"])
        XCTAssertNil(setup.app.currentConfig, "a failed initialize can be retried")
    }

    func testAStoredSessionIsAnnouncedOncePerListener() async throws {
        let store = InMemoryTokenStore()
        let first = try makeSetup(store: store)
        _ = await signedIn(first)
        let second = try makeSetup(store: store, listeners: 2)
        // The provider of the first setup issued the stored tokens: point the new service at it.
        second.app.initialize(with: first.config)
        _ = await second.log.waitForEvents(4)
        // L2 was registered when the setup was made, L1 by initialize: in that order, once each.
        XCTAssertEqual(second.log.transcript, [
            "L2.didFinishInitializationWithError(nil)", "L1.didFinishInitializationWithError(nil)",
            "L2.didFinishAuthentication(token)", "L1.didFinishAuthentication(token)",
        ])
    }

    func testAuthorizeFetchAndUpdate() async throws {
        let setup = try makeSetup()
        let before = await signedIn(setup)
        XCTAssertEqual(setup.log.transcript.last, "L1.didFinishAuthentication(token)")
        setup.app.loadUserInfo()
        setup.app.loadPermissions()
        setup.app.updatePermissions(.INVALID, tcString: "CPtest")
        setup.app.loadPermissionsDefault()
        _ = await setup.log.waitForEvents(before + 4)
        XCTAssertEqual(Array(setup.log.transcript.dropFirst(before)), [
            "L1.didFetchUserInfo(sub=erika given_name=Erika)",
            "L1.didFetchPermissions(PERMISSIONS_FOUND idconsent=VALID tpid=tpid-erika)",
            "L1.didUpdatePermission(tpid=tpid-erika)",
            "L1.didFetchPermissions(PERMISSIONS_FOUND idconsent=INVALID tpid=-)",
        ])
        let reads = setup.provider.requests(to: .permissionRead).map { $0.parameters["q.identifier.in"] }
        XCTAssertEqual(reads, ["TPID,SYNC_ID", nil], "SYNC_ID is implied unless collapsed")
        XCTAssertEqual(setup.app.permissions?.netIdPrivacySettings?.iabTcString?.value, "CPtest")
    }

    func testTheUserClosingThePageIsACancelByTheUser() async throws {
        let setup = try makeSetup()
        setup.provider.scriptConsent(.cancel)
        _ = await signedIn(setup)
        XCTAssertEqual(setup.log.transcript.last, "L1.didCancelAuthentication(AuthorizationCanceledByUser/Authentication)")
    }

    func testConsentDeniedIsAccessDenied() async throws {
        let setup = try makeSetup()
        setup.provider.scriptConsent(.deny)
        _ = await signedIn(setup)
        XCTAssertEqual(setup.log.transcript.last, "L1.didFinishAuthenticationWithError(AccessDenied/Authentication)")
    }

    func testPermissionCallsWithoutATokenReportTokenError() async throws {
        let setup = try makeSetup()
        setup.app.initialize(with: setup.config)
        setup.app.loadPermissions()
        setup.app.updatePermissions(.VALID)
        _ = await setup.log.waitForEvents(3)
        XCTAssertEqual(Array(setup.log.transcript.dropFirst()), [
            "L1.didFetchPermissionsWithError(TOKEN_ERROR UnauthorizedClient/PermissionRead)",
            "L1.didUpdatePermissionWithError(TOKEN_ERROR UnauthorizedClient/PermissionWrite)",
        ])
    }

    func testPermissionHTTPErrorsCarryTheBodysStatus() async throws {
        let setup = try makeSetup()
        let before = await signedIn(setup)
        setup.provider.inject(.status(400, body: #"{"status_code":"PERMISSION_PARAMETERS_ERROR"}"#), at: .permissionRead)
        setup.provider.inject(.status(400, body: #"{"status_code":"TPID_EXISTENCE_ERROR"}"#), at: .permissionWrite)
        setup.app.loadPermissions()
        setup.app.updatePermissions(.VALID)
        _ = await setup.log.waitForEvents(before + 2)
        XCTAssertEqual(Array(setup.log.transcript.dropFirst(before)), [
            "L1.didFetchPermissionsWithError(PERMISSION_PARAMETERS_ERROR InvalidRequest/PermissionRead)",
            "L1.didUpdatePermissionWithError(TPID_EXISTENCE_ERROR Other/PermissionWrite)",
        ])
    }

    func testNoConnectivityIsOnlyDidEncounterNetworkError() async throws {
        let setup = try makeSetup()
        let before = await signedIn(setup)
        setup.provider.inject(.dropConnection, at: .userInfo)
        setup.provider.inject(.dropConnection, at: .permissionRead)
        setup.app.loadUserInfo()
        setup.app.loadPermissions()
        setup.app.loadUserInfo()
        _ = await setup.log.waitForEvents(before + 3)
        XCTAssertEqual(Array(setup.log.transcript.dropFirst(before)), [
            "L1.didEncounterNetworkError(NetworkError/UserInfo)",
            "L1.didEncounterNetworkError(NetworkError/PermissionRead)",
            "L1.didFetchUserInfo(sub=erika given_name=Erika)",
        ])
    }

    func testAnInvalidAccessTokenFromSetAccessTokenIsNoAuth() async throws {
        let setup = try makeSetup()
        let before = await signedIn(setup)
        setup.app.setExpiredAccessToken()
        setup.app.loadUserInfo()
        _ = await setup.log.waitForEvents(before + 1)
        XCTAssertEqual(setup.log.transcript.last, "L1.didFetchUserInfoWithError(NoAuth/UserInfo)")
        XCTAssertEqual(setup.provider.requests(to: .userInfo).last?.authorization, "Bearer an-invalid-token")
    }

    func testEndSessionClearsLocallyWithoutAServerCall() async throws {
        let setup = try makeSetup()
        let before = await signedIn(setup)
        setup.app.endSession()
        setup.app.loadUserInfo()
        _ = await setup.log.waitForEvents(before + 2)
        XCTAssertEqual(Array(setup.log.transcript.dropFirst(before)), ["L1.didEndSession()", "L1.didFetchUserInfoWithError(NoAuth/UserInfo)"])
        XCTAssertTrue(setup.provider.requests(to: .revocation).isEmpty)
        let stored = try await setup.store.load()
        XCTAssertNil(stored)
    }

    func testResumeSessionCompletesAnAuthorizationWithoutAgent() async throws {
        let setup = try makeSetup()
        setup.netId.authorizationAgent = nil
        let (urls, sink) = AsyncStream.makeStream(of: URL.self)
        setup.netId.service.authorizationURLHandler = { sink.yield($0) }
        setup.app.initialize(with: setup.config)
        setup.app.authorize(.Login)
        var iterator = urls.makeAsyncIterator()
        let next = await iterator.next()
        let url = try XCTUnwrap(next)
        let redirect = try await HeadlessUserAgent().authorize(url: url, redirectURI: URL(string: "com.example.sessiondemo:/callback")!)
        setup.app.resume(URL(string: "com.example.other:/callback?code=x")!)
        setup.app.resume(redirect)
        _ = await setup.log.waitForEvents(2)
        XCTAssertEqual(setup.log.transcript, ["L1.didFinishInitializationWithError(nil)", "L1.didFinishAuthentication(token)"])
        XCTAssertNotNil(setup.app.accessToken)
    }
}
