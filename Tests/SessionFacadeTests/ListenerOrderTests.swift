import Dispatch
import Foundation
import SessionCore
import SessionFacadeTesting
import SessionPermissions
import SessionFacade
import SessionTesting
import XCTest

/// Listeners, re-entrant calls and a concurrent callback queue: rules C3, C9, C10.
final class ListenerOrderTests: XCTestCase {
    func testThreeListenersOneDeallocatedAndOneUnregisteringItself_C9() async throws {
        let facade = try makeFacade()
        let log = facade.log
        let quitter = ScriptedListener("B", log: log, service: facade.service) { callback, listener in
            if callback == "didFinishInitialization" { listener.service.unregisterListener(listener) }
        }
        var shortLived: RecordingListener? = RecordingListener("C", log: log)
        facade.service.registerListener(quitter)
        facade.service.registerListener(try XCTUnwrap(shortLived))
        facade.service.registerListener(facade.listener) // already registered: no effect

        facade.service.initialize(facade.configuration, permissionCenter: facade.permissionCenter, completion: log.completion("initialize"))
        _ = await log.waitForEvents(4)
        shortLived = nil
        facade.service.fetchUserInfo(completion: log.completion("fetchUserInfo"))
        _ = await log.waitForEvents(6)
        XCTAssertEqual(log.transcript, [
            "A.didFinishInitializationWithError(nil)", "B.didFinishInitializationWithError(nil)",
            "C.didFinishInitializationWithError(nil)", "completion.initialize(success)",
            "A.didFetchUserInfoWithError(notAuthenticated)", "completion.fetchUserInfo(notAuthenticated)",
        ])
        withExtendedLifetime(quitter) {}
    }

    func testUnregisteringAffectsOutcomesNotYetDelivered_C9() async throws {
        let facade = try makeFacade()
        let log = facade.log
        let other = RecordingListener("B", log: log)
        facade.service.registerListener(other)
        // Held back on the callback queue, neither outcome can start its delivery before B leaves.
        facade.service.callbackQueue.suspend()
        facade.service.fetchUserInfo(completion: log.completion("fetchUserInfo"))
        facade.service.fetchUserInfo(completion: log.completion("fetchUserInfo"))
        facade.service.unregisterListener(other)
        facade.service.callbackQueue.resume()
        _ = await log.waitForEvents(4)
        XCTAssertEqual(log.transcript.filter { $0.hasPrefix("B.") }.count, 0,
                       "B was unregistered before either outcome was delivered")
    }

    func testCallsFromInsideCallbacksAreOrderedAfterEarlierCalls_C10() async throws {
        let facade = try makeFacade()
        let log = facade.log
        let chaining = ScriptedListener("B", log: log, service: facade.service) { callback, listener in
            switch callback {
            case "didFinishAuthentication": listener.service.fetchUserInfo(completion: log.completion("fromCallback"))
            case "didFetchUserInfo": listener.service.endSession(completion: log.completion("fromCallback"))
            default: break
            }
        }
        facade.service.registerListener(chaining)
        await facade.initialize()
        facade.service.getAuthorization(flow: .loginPermission, agent: HeadlessUserAgent(), completion: log.completion("getAuthorization"))
        facade.service.fetchPermissions(completion: log.completion("fetchPermissions"))
        _ = await log.waitForEvents(15)
        XCTAssertEqual(Array(log.transcript.dropFirst(3)), [
            "A.didFinishAuthentication(token)", "B.didFinishAuthentication(token)", "completion.getAuthorization(token)",
            "A.didFetchPermissions(PERMISSIONS_FOUND)", "B.didFetchPermissions(PERMISSIONS_FOUND)", "completion.fetchPermissions(PERMISSIONS_FOUND)",
            // Called from B's didFinishAuthentication, after fetchPermissions had been called:
            "A.didFetchUserInfo(sub=erika)", "B.didFetchUserInfo(sub=erika)", "completion.fromCallback(sub=erika)",
            // Called from B's didFetchUserInfo:
            "A.didEndSession()", "B.didEndSession()", "completion.fromCallback(success)",
        ])
        assertOnCallbackQueue(log)
    }

    func testDeliveryIsSerialOnAConcurrentQueue_C3() async throws {
        let facade = try makeFacade()
        let queue = DispatchQueue(label: FacadeHarness.queueLabel, attributes: .concurrent)
        CallbackLog.name(queue, FacadeHarness.queueLabel)
        facade.service.callbackQueue = queue
        let overlap = OverlapDetector()
        facade.service.registerListener(overlap)
        await facade.initialize()
        await facade.signIn()
        let log = facade.log
        let count = 40
        for index in 0..<count {
            facade.service.fetchUserInfo(completion: { result in
                overlap.enter(); defer { overlap.leave() }
                log.record("completion", "fetchUserInfo#\(index)", (try? result.get()).map { "sub=\($0.sub)" } ?? "error")
            })
        }
        _ = await log.waitForEvents(4 + 2 * count)
        let tail = Array(log.transcript.dropFirst(4))
        var expected: [String] = []
        for index in 0..<count { expected += ["A.didFetchUserInfo(sub=erika)", "completion.fetchUserInfo#\(index)(sub=erika)"] }
        XCTAssertEqual(tail, expected)
        XCTAssertEqual(overlap.maximum, 1, "no two callbacks ran at the same time")
        assertOnCallbackQueue(log)
    }
}

/// Records like a RecordingListener, then reacts to chosen callbacks by calling the service.
final class ScriptedListener: SessionServiceDelegate, Sendable {
    let recorder: RecordingListener
    let service: SessionService
    private let react: @Sendable (String, ScriptedListener) -> Void

    init(_ name: String, log: CallbackLog, service: SessionService, react: @escaping @Sendable (String, ScriptedListener) -> Void) {
        recorder = RecordingListener(name, log: log)
        self.service = service
        self.react = react
    }

    func didFinishInitializationWithError(_ error: SessionError?) {
        recorder.didFinishInitializationWithError(error)
        react("didFinishInitialization", self)
    }
    func didFinishAuthentication(_ accessToken: String) {
        recorder.didFinishAuthentication(accessToken)
        react("didFinishAuthentication", self)
    }
    func didFetchUserInfo(_ userInfo: UserInfo) {
        recorder.didFetchUserInfo(userInfo)
        react("didFetchUserInfo", self)
    }
    func didFetchUserInfoWithError(_ error: SessionError) { recorder.didFetchUserInfoWithError(error) }
    func didFetchPermissions(_ permissions: PermissionReadResponse) { recorder.didFetchPermissions(permissions) }
    func didEndSession() { recorder.didEndSession() }
}

/// Counts callbacks running at the same time.
///
/// `@unchecked Sendable`: `inside` and `peak` are read and written only while holding `lock`.
final class OverlapDetector: SessionServiceDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var inside = 0
    private var peak = 0

    var maximum: Int { lock.withLock { peak } }

    func enter() {
        lock.withLock {
            inside += 1
            peak = max(peak, inside)
        }
        // Give a second delivery, if one were wrongly dispatched, the chance to overlap.
        Thread.sleep(forTimeInterval: 0.002)
    }

    func leave() { lock.withLock { inside -= 1 } }

    func didFetchUserInfo(_ userInfo: UserInfo) {
        enter()
        leave()
    }
}
