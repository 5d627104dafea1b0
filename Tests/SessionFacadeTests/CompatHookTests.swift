import Foundation
import Dispatch
import SessionCore
import SessionPermissions
import SessionFacade
import SessionTesting
import XCTest

/// The calls compat layers build legacy behaviour on: `enqueueCallback` (C1, C4, C7),
/// `storedTokens`, and what `cancelAuthorization` returns (C14).
final class CompatHookTests: XCTestCase {
    func testEnqueuedCallbacksRunInCallOrderOnTheCallbackQueue_C1_C4() async throws {
        let facade = try makeFacade()
        let log = facade.log
        facade.service.enqueueCallback { log.record("callback", "before initialize", "") }
        facade.service.initialize(facade.configuration, permissionCenter: facade.permissionCenter, completion: log.completion("initialize"))
        facade.provider.inject(.delay(0.2), at: .userInfo)
        facade.service.fetchUserInfo(completion: log.completion("fetchUserInfo"))
        facade.service.enqueueCallback { log.record("callback", "after fetch", "") }
        _ = await log.waitForEvents(6)
        XCTAssertEqual(log.transcript, [
            "callback.before initialize()",
            "A.didFinishInitializationWithError(nil)", "completion.initialize(success)",
            "A.didFetchUserInfoWithError(notAuthenticated)", "completion.fetchUserInfo(notAuthenticated)",
            "callback.after fetch()",
        ])
        assertOnCallbackQueue(log)
    }

    func testAnEnqueuedCallbackKeepsItsPlaceWhenEndSessionJumpsTheQueue_C7() async throws {
        let facade = try makeFacade()
        let log = facade.log
        await facade.initialize()
        await facade.signIn()
        facade.provider.inject(.delay(0.3), at: .userInfo)
        facade.service.fetchUserInfo(completion: log.completion("fetchUserInfo"))
        facade.service.fetchPermissions(completion: log.completion("fetchPermissions"))
        facade.service.enqueueCallback { log.record("callback", "queued", "") }
        facade.service.fetchPermissions(completion: log.completion("fetchPermissions"))
        facade.service.endSession(completion: log.completion("endSession"))
        await facade.assertTranscript(after: FacadeHarness.signedIn, [
            "A.didFetchUserInfo(sub=erika)", "completion.fetchUserInfo(sub=erika)",
            "A.didFetchPermissionsWithError(UNKNOWN, sessionEnded)", "completion.fetchPermissions(sessionEnded)",
            "callback.queued()",
            "A.didFetchPermissionsWithError(UNKNOWN, sessionEnded)", "completion.fetchPermissions(sessionEnded)",
            "A.didEndSession()", "completion.endSession(success)",
        ])
    }

    func testStoredTokensAreTheStoredOnesWithoutARefresh() async throws {
        let facade = try makeFacade()
        let (results, sink) = AsyncStream.makeStream(of: Result<SessionTokens?, SessionError>.self)
        facade.service.storedTokens { sink.yield($0) }
        await facade.initialize()
        await facade.signIn()
        facade.service.expireAccessToken()
        facade.service.storedTokens { sink.yield($0) }
        var iterator = results.makeAsyncIterator()
        guard case .failure(let early)? = await iterator.next() else { return XCTFail("storedTokens before initialize must fail") }
        XCTAssertEqual(early.code, .notInitialized)
        guard case .success(let expired?)? = await iterator.next() else { return XCTFail("storedTokens returns the session") }
        XCTAssertTrue(expired.expires(within: 0, of: facade.clock.now()), "returned as stored, expired")
        XCTAssertEqual(facade.provider.requests(to: .token).count, 1, "storedTokens refreshes nothing")
        facade.service.endSession(completion: nil)
        facade.service.storedTokens { sink.yield($0) }
        guard case .success(let after)? = await iterator.next() else { return XCTFail("storedTokens after endSession succeeds") }
        XCTAssertNil(after, "no session is left")
    }

    func testAWaitingInitializeStillRunsWhenEndSessionJumpsTheQueue_C7() async throws {
        let gate = DiscoveryGate()
        let facade = try makeFacade(transport: gate)
        let log = facade.log
        facade.service.initialize(facade.configuration, permissionCenter: facade.permissionCenter, completion: log.completion("initialize"))
        await gate.waitUntilHeld()
        facade.service.initialize(facade.configuration, permissionCenter: facade.permissionCenter, completion: log.completion("initialize"))
        facade.service.fetchUserInfo(completion: log.completion("fetchUserInfo"))
        facade.service.endSession(completion: log.completion("endSession"))
        gate.release(failing: true)
        _ = await log.waitForEvents(8)
        XCTAssertEqual(log.transcript, [
            "A.didFinishInitializationWithError(cannotConnect)", "completion.initialize(cannotConnect)",
            "A.didFinishInitializationWithError(nil)", "completion.initialize(success)",
            "A.didFetchUserInfoWithError(sessionEnded)", "completion.fetchUserInfo(sessionEnded)",
            "A.didEndSession()", "completion.endSession(success)",
        ])
    }

    func testEndSessionInTurnLetsTheCallsBeforeItFinish_C4() async throws {
        let facade = try makeFacade()
        let log = facade.log
        await facade.initialize()
        await facade.signIn()
        facade.provider.inject(.delay(0.2), at: .userInfo)
        facade.service.fetchUserInfo(completion: log.completion("fetchUserInfo"))
        facade.service.fetchPermissions(completion: log.completion("fetchPermissions"))
        facade.service.endSessionInTurn(completion: log.completion("endSessionInTurn"))
        facade.service.endSessionInTurn(completion: log.completion("endSessionInTurn"))
        await facade.assertTranscript(after: FacadeHarness.signedIn, [
            "A.didFetchUserInfo(sub=erika)", "completion.fetchUserInfo(sub=erika)",
            "A.didFetchPermissions(PERMISSIONS_FOUND)", "completion.fetchPermissions(PERMISSIONS_FOUND)",
            "A.didEndSession()", "completion.endSessionInTurn(true)",
            "A.didEndSession()", "completion.endSessionInTurn(false)",
        ])
    }

    func testCancelAuthorizationSaysWhetherAnAuthorizationWasInProgress_C14() async throws {
        let facade = try makeFacade()
        await facade.initialize()
        XCTAssertFalse(facade.service.cancelAuthorization())
        let (urls, sink) = AsyncStream.makeStream(of: URL.self)
        facade.service.authorizationURLHandler = { sink.yield($0) }
        facade.service.getAuthorization(completion: facade.log.completion("getAuthorization"))
        var iterator = urls.makeAsyncIterator()
        _ = await iterator.next()
        XCTAssertTrue(facade.service.cancelAuthorization())
        await facade.assertTranscript(after: FacadeHarness.initialized, ["A.didCancelAuthentication(cancelled)", "completion.getAuthorization(cancelled)"])
        XCTAssertFalse(facade.service.cancelAuthorization())
    }
}

/// A transport that holds the first discovery request until the test releases it, so an
/// `initialize` is known to be running while later calls queue behind it.
///
/// `@unchecked Sendable`: `held` and `waiters` are read and written only while holding `lock`.
private final class DiscoveryGate: HTTPTransport, @unchecked Sendable {
    private let inner = CurlTransport(timeout: 5)
    private let lock = NSLock()
    private var used = false
    private var held: CheckedContinuation<Bool, Never>?
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let first = request.url.path.hasSuffix("openid-configuration") && lock.withLock { () -> Bool in
            defer { used = true }
            return !used
        }
        if first {
            let fail = await withCheckedContinuation { continuation in
                let ready = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
                    held = continuation
                    defer { waiters.removeAll() }
                    return waiters
                }
                ready.forEach { $0.resume() }
            }
            if fail { throw HTTPTransportError(.cannotConnect, detail: "held, then refused") }
        }
        return try await inner.send(request)
    }

    /// Returns once the first discovery request is held.
    func waitUntilHeld() async {
        await withCheckedContinuation { continuation in
            let isHeld = lock.withLock { () -> Bool in
                if held != nil { return true }
                waiters.append(continuation)
                return false
            }
            if isHeld { continuation.resume() }
        }
    }

    func release(failing: Bool) {
        lock.withLock { () -> CheckedContinuation<Bool, Never>? in
            defer { held = nil }
            return held
        }?.resume(returning: failing)
    }
}
