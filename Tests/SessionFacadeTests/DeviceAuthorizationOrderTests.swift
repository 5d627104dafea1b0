import Foundation
import SessionCore
import SessionFacade
import SessionTesting
import XCTest

/// C16: a device sign-in's code reaches the listeners, then the call's handler, before its
/// outcome; the outcome follows as for a browser sign-in.
final class DeviceAuthorizationOrderTests: XCTestCase {
    func testTheCodeIsDeliveredBeforeTheOutcome_C16() async throws {
        let facade = try makeFacade { $0.approvesDeviceSignInsAfterPolls = 2 }
        await facade.initialize()
        let log = facade.log
        let codes = Locked<[String]>([])
        facade.service.getDeviceAuthorization(flow: .login, codeHandler: { authorization in
            codes.withLock { $0.append(authorization.userCode) }
            log.record("handler", "code", "")
        }, completion: log.completion("getDeviceAuthorization"))
        await facade.assertTranscript(after: FacadeHarness.initialized, [
            "A.didReceiveDeviceAuthorization(code)", "handler.code()", "A.didFinishAuthentication(token)",
            "completion.getDeviceAuthorization(token)",
        ])
        XCTAssertEqual(codes.value.count, 1)
        assertOnCallbackQueue(log)
    }

    func testADeniedOrCancelledDeviceSignInIsReportedAsABrowserSignIn_C16_C14() async throws {
        let facade = try makeFacade { $0.deviceCodeLifetime = 86_400 }
        await facade.initialize()
        let provider = facade.provider
        facade.service.getDeviceAuthorization(flow: .login, codeHandler: { provider.denyDeviceSignIn(userCode: $0.userCode) },
                                              completion: facade.log.completion("denied"))
        await facade.assertTranscript(after: FacadeHarness.initialized, [
            "A.didReceiveDeviceAuthorization(code)", "A.didFinishAuthenticationWithError(accessDenied)", "completion.denied(accessDenied)",
        ])
        let service = facade.service
        service.getDeviceAuthorization(flow: .login, codeHandler: { _ in service.cancelAuthorization() },
                                       completion: facade.log.completion("cancelled"))
        await facade.assertTranscript(after: FacadeHarness.initialized + 3, [
            "A.didReceiveDeviceAuthorization(code)", "A.didCancelAuthentication(cancelled)", "completion.cancelled(cancelled)",
        ])
    }

    /// `endSession` ends a device sign-in that is still polling, as it ends a browser sign-in.
    func testEndSessionEndsAPollingDeviceSignIn_C16_C7() async throws {
        let facade = try makeFacade { $0.deviceCodeLifetime = 86_400 }
        await facade.initialize()
        let service = facade.service, log = facade.log
        service.getDeviceAuthorization(flow: .login, codeHandler: { _ in service.endSession(completion: log.completion("endSession")) },
                                       completion: log.completion("device"))
        await facade.assertTranscript(after: FacadeHarness.initialized, [
            "A.didReceiveDeviceAuthorization(code)", "A.didFinishAuthenticationWithError(sessionEnded)", "completion.device(sessionEnded)",
            "A.didEndSession()", "completion.endSession(success)",
        ])
    }

    func testTheAsyncFormReturnsTheTokens() async throws {
        let facade = try makeFacade()
        await facade.initialize()
        let provider = facade.provider
        let tokens = try await facade.service.getDeviceAuthorization(flow: .login) { provider.approveDeviceSignIn(userCode: $0.userCode) }
        XCTAssertEqual(tokens.subject, LocalProvider.User.erika.subject)
    }
}
