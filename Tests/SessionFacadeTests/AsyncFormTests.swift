import Dispatch
import Foundation
import SessionCore
import SessionPermissions
import SessionFacade
import SessionTesting
import XCTest

/// The `async throws` forms: the same operation line as the completion handlers (C4 across both
/// styles), the same listener callbacks (C3), the same errors.
final class AsyncFormTests: XCTestCase {
    func testAwaitedCallsAndCompletionHandlersKeepOneCallOrder_C3_C4() async throws {
        let facade = try makeFacade()
        try await facade.service.initialize(facade.configuration, permissionCenter: facade.permissionCenter)
        let tokens = try await facade.service.getAuthorization(flow: .loginPermission, agent: HeadlessUserAgent())
        XCTAssertFalse(tokens.accessToken.isEmpty)
        XCTAssertEqual(facade.log.transcript, ["A.didFinishInitializationWithError(nil)", "A.didFinishAuthentication(token)"],
                       "listeners hear awaited calls, before the call returns")

        // A completion-handler call, then an awaited one: the awaited call's outcome comes second,
        // and its listeners have heard it when it returns.
        let signedIn = facade.log.recorded.count
        facade.service.fetchPermissions(completion: facade.log.completion("fetchPermissions"))
        let info = try await facade.service.fetchUserInfo()
        XCTAssertEqual(info.sub, "erika")
        // The awaited fetchUserInfo has returned: its outcome, and the one before it, are in the log.
        XCTAssertEqual(facade.transcript(after: signedIn), [
            "A.didFetchPermissions(PERMISSIONS_FOUND)", "completion.fetchPermissions(PERMISSIONS_FOUND)", "A.didFetchUserInfo(sub=erika)",
        ])
        // A completion-handler call made after the awaited one returned comes after it, and an
        // awaited call waits behind a completion-handler call still running.
        let fetched = facade.log.recorded.count
        facade.service.updatePermissions(PermissionUpdate(idConsent: .valid), completion: facade.log.completion("updatePermissions"))
        try await facade.service.endSession()
        XCTAssertEqual(facade.transcript(after: fetched), [
            "A.didUpdatePermissions(tpid=-)", "completion.updatePermissions(tpid=-)", "A.didEndSession()",
        ])
        assertOnCallbackQueue(facade.log)
    }

    func testAwaitedCallsThrowTheOutcomesError() async throws {
        let facade = try makeFacade()
        do {
            _ = try await facade.service.fetchUserInfo()
            XCTFail("not initialized")
        } catch let error as SessionError {
            XCTAssertEqual(error.code, .notInitialized)
        }
        try await facade.service.initialize(facade.configuration, permissionCenter: facade.permissionCenter)
        facade.provider.scriptConsent(.deny)
        do {
            _ = try await facade.service.getAuthorization(agent: HeadlessUserAgent())
            XCTFail("denied")
        } catch let error as SessionError {
            XCTAssertEqual(error.code, .accessDenied)
        }
        do {
            _ = try await facade.service.fetchPermissions()
            XCTFail("no session")
        } catch let error as SessionError {
            XCTAssertEqual(error.code, .notAuthenticated)
        }
        XCTAssertEqual(facade.log.transcript, [
            "A.didFetchUserInfoWithError(notInitialized)", "A.didFinishInitializationWithError(nil)", "A.didFinishAuthenticationWithError(accessDenied)",
            "A.didFetchPermissionsWithError(UNKNOWN, notAuthenticated)",
        ])
    }
}
