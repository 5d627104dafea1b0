import Dispatch
import Foundation
import SessionCore
import SessionPermissions
import SessionFacade
import SessionTesting
import XCTest

/// Initialization and operations around it: rules C1, C3, C5, C6.
final class InitializationOrderTests: XCTestCase {
    func testFreshInitialize_C5() async throws {
        let facade = try makeFacade()
        facade.service.initialize(facade.configuration, permissionCenter: facade.permissionCenter, completion: facade.log.completion("initialize"))
        _ = await facade.log.waitForEvents(2)
        XCTAssertEqual(facade.log.transcript, ["A.didFinishInitializationWithError(nil)", "completion.initialize(success)"])
        assertOnCallbackQueue(facade.log)
    }

    func testInitializeWithAValidStoredSessionAnnouncesIt_C5() async throws {
        let facade = try makeFacade()
        _ = try await facade.storeSession()
        facade.service.initialize(facade.configuration, permissionCenter: facade.permissionCenter, completion: facade.log.completion("initialize"))
        facade.service.fetchUserInfo(completion: facade.log.completion("fetchUserInfo"))
        _ = await facade.log.waitForEvents(5)
        XCTAssertEqual(facade.log.transcript, [
            "A.didFinishInitializationWithError(nil)", "completion.initialize(success)",
            "A.didFinishAuthentication(token)",
            "A.didFetchUserInfo(sub=erika)", "completion.fetchUserInfo(sub=erika)",
        ])
        assertOnCallbackQueue(facade.log)
    }

    func testInitializeWithAnExpiredSessionRefreshesItFirst_C5_C8() async throws {
        let facade = try makeFacade()
        let stored = try await facade.storeSession(expired: true)
        facade.service.initialize(facade.configuration, permissionCenter: facade.permissionCenter, completion: facade.log.completion("initialize"))
        _ = await facade.log.waitForEvents(3)
        XCTAssertEqual(facade.log.transcript, [
            "A.didFinishInitializationWithError(nil)", "completion.initialize(success)", "A.didFinishAuthentication(token)",
        ])
        XCTAssertEqual(facade.provider.requests(to: .token).last?.parameters["grant_type"], "refresh_token")
        let current = try await facade.store.load()
        XCTAssertNotEqual(current?.refreshToken, stored.refreshToken, "the rotated token was stored")
    }

    func testInitializeWithAnExpiredSessionWhoseRefreshIsRefusedClearsIt_C5() async throws {
        let facade = try makeFacade()
        _ = try await facade.storeSession(expired: true)
        facade.provider.inject(.status(400, body: #"{"error":"invalid_grant"}"#), at: .token)
        facade.service.initialize(facade.configuration, permissionCenter: facade.permissionCenter, completion: facade.log.completion("initialize"))
        _ = await facade.log.waitForEvents(3)
        XCTAssertEqual(facade.log.transcript, [
            "A.didFinishInitializationWithError(nil)", "completion.initialize(success)",
            "A.didFinishAuthenticationWithError(reauthenticationRequired)",
        ])
        let current = try await facade.store.load()
        XCTAssertNil(current)
    }

    func testASessionLostToAnInterruptedRefreshIsReportedNotTakenForNone_C5() async throws {
        let facade = try makeFacade()
        let tokens = try await facade.storeSession()
        // The app was killed while its refresh was on its way: the mark is what the store holds.
        try await facade.store.save(tokens.marked(.refresh))
        facade.service.initialize(facade.configuration, permissionCenter: facade.permissionCenter, completion: facade.log.completion("initialize"))
        _ = await facade.log.waitForEvents(3)
        XCTAssertEqual(facade.log.transcript, [
            "A.didFinishInitializationWithError(nil)", "completion.initialize(success)",
            "A.didFinishAuthenticationWithError(reauthenticationRequired)",
        ])
        let current = try await facade.store.load()
        XCTAssertNil(current)
        XCTAssertEqual(facade.provider.refreshTokenReuses, 0, "the possibly spent refresh token was not sent again")
    }

    func testASecondInitializeFailsAndChangesNothing_C6() async throws {
        let facade = try makeFacade()
        await facade.initialize()
        await facade.signIn()
        let before = facade.log.recorded.count
        facade.service.initialize(try SessionConfiguration(issuer: URL(string: "https://elsewhere.example")!, clientID: "x",
                                                           redirectURI: URL(string: "com.example.x:/cb")!),
                                  completion: facade.log.completion("initialize"))
        facade.service.fetchUserInfo(completion: facade.log.completion("fetchUserInfo"))
        _ = await facade.log.waitForEvents(before + 4)
        XCTAssertEqual(facade.transcript(after: before), [
            "A.didFinishInitializationWithError(alreadyInitialized)", "completion.initialize(alreadyInitialized)",
            "A.didFetchUserInfo(sub=erika)", "completion.fetchUserInfo(sub=erika)",
        ])
    }

    func testAfterAFailedInitializeOperationsNameTheReasonAndInitializeCanRunAgain_C6() async throws {
        let facade = try makeFacade()
        facade.provider.inject(.status(500), at: .discovery)
        facade.service.initialize(facade.configuration, permissionCenter: facade.permissionCenter, completion: facade.log.completion("initialize"))
        facade.service.fetchUserInfo { result in
            if case .failure(let error) = result { facade.log.record("completion", "fetchUserInfo", error.message) }
        }
        facade.service.initialize(facade.configuration, permissionCenter: facade.permissionCenter, completion: facade.log.completion("initialize"))
        _ = await facade.log.waitForEvents(6)
        XCTAssertEqual(facade.log.transcript, [
            "A.didFinishInitializationWithError(invalidDiscoveryDocument)", "completion.initialize(invalidDiscoveryDocument)",
            "A.didFetchUserInfoWithError(notInitialized)",
            "completion.fetchUserInfo(initialize failed (invalidDiscoveryDocument: discovery: the provider answered with an error status))",
            "A.didFinishInitializationWithError(nil)", "completion.initialize(success)",
        ])
    }

    func testOperationsBeforeInitializeFailAndThoseAfterItWaitTheirTurn_C6_C4() async throws {
        let facade = try makeFacade()
        facade.service.fetchUserInfo(completion: facade.log.completion("fetchUserInfo"))
        facade.service.getAuthorization(agent: HeadlessUserAgent(), completion: facade.log.completion("getAuthorization"))
        facade.service.initialize(facade.configuration, permissionCenter: facade.permissionCenter, completion: facade.log.completion("initialize"))
        facade.service.getAuthorization(flow: .loginPermission, agent: HeadlessUserAgent(), completion: facade.log.completion("getAuthorization"))
        facade.service.fetchPermissions(completion: facade.log.completion("fetchPermissions"))
        _ = await facade.log.waitForEvents(10)
        XCTAssertEqual(facade.log.transcript, [
            "A.didFetchUserInfoWithError(notInitialized)", "completion.fetchUserInfo(notInitialized)",
            "A.didFinishAuthenticationWithError(notInitialized)", "completion.getAuthorization(notInitialized)",
            "A.didFinishInitializationWithError(nil)", "completion.initialize(success)",
            "A.didFinishAuthentication(token)", "completion.getAuthorization(token)",
            "A.didFetchPermissions(PERMISSIONS_FOUND)", "completion.fetchPermissions(PERMISSIONS_FOUND)",
        ])
        assertOnCallbackQueue(facade.log)
    }

    func testAnImmediateFailureIsNeverDeliveredOnTheCallersStack_C1() async throws {
        let facade = try makeFacade()
        let queue = DispatchQueue(label: FacadeHarness.queueLabel + ".caller")
        facade.service.callbackQueue = queue
        let returned = Flag()
        let deliveredAfterReturn = Flag()
        queue.sync {
            facade.service.fetchUserInfo { _ in if returned.isSet { deliveredAfterReturn.set() } }
            returned.set()
        }
        let done = facade.log.completion("fetchUserInfo") as @Sendable (Result<UserInfo, SessionError>) -> Void
        facade.service.fetchUserInfo(completion: done)
        _ = await facade.log.waitForEvents(2)
        XCTAssertTrue(deliveredAfterReturn.isSet, "the completion ran after fetchUserInfo returned, not inside it")
    }
}

/// A flag set from any thread.
final class Flag: Sendable {
    private let value = Locked(false)
    var isSet: Bool { value.value }
    func set() { value.value = true }
}
