import Dispatch
import Foundation
import SessionCore
import SessionPermissions
import SessionFacade

/// One callback as a test sees it: who received it, which callback, a payload summary without
/// secrets, and the name of the queue it ran on.
public struct RecordedEvent: Sendable, Equatable, CustomStringConvertible {
    /// The listener's name, or `completion` for a completion handler.
    public let receiver: String
    /// The callback, e.g. `didFetchUserInfo`, or the operation for a completion handler.
    public let callback: String
    /// A summary of the payload: error codes, `sub`, status codes; never a token.
    public let payload: String
    /// The name of the dispatch queue the callback ran on (see ``CallbackLog/name(_:_:)``).
    public let queue: String

    /// `receiver.callback(payload)`, the form transcripts compare.
    public var description: String { "\(receiver).\(callback)(\(payload))" }
}

/// An ordered log of callbacks, shared by any number of ``RecordingListener``s and completion
/// handlers, that a test can await.
public final class CallbackLog: Sendable {
    private struct State: Sendable {
        var events: [RecordedEvent] = []
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Locked(State())

    /// Creates an empty log.
    public init() {}

    /// Every event so far, in delivery order.
    public var recorded: [RecordedEvent] { state.withLock { $0.events } }

    /// The events as `receiver.callback(payload)` lines.
    public var transcript: [String] { recorded.map(\.description) }

    /// Waits until at least `count` events are recorded, or `timeout` seconds pass (a guard
    /// against a hang, after which the test's comparison fails), and returns the events.
    public func waitForEvents(_ count: Int, timeout: TimeInterval = 10) async -> [RecordedEvent] {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.reach(count) }
            let seconds = timeout.isFinite ? min(max(0, timeout), 1_000_000) : 1_000_000
            group.addTask { try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000)) }
            await group.next()
            group.cancelAll()
            let waiting = state.withLock { state in
                defer { state.waiters.removeAll() }
                return state.waiters
            }
            for waiter in waiting { waiter.continuation.resume() }
        }
        return recorded
    }

    private func reach(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                if state.events.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Appends an event; called on the queue the callback runs on.
    public func record(_ receiver: String, _ callback: String, _ payload: String) {
        let event = RecordedEvent(receiver: receiver, callback: callback, payload: payload, queue: Self.currentQueueLabel())
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.events.append(event)
            let count = state.events.count
            let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= count }
            return ready
        }
        ready.forEach { $0.resume() }
    }

    /// A completion handler that records its result as `completion.<operation>(summary)`.
    public func completion<Value>(_ operation: String) -> @Sendable (Result<Value, SessionError>) -> Void {
        { [self] result in
            switch result {
            case .success(let value): record("completion", operation, Self.summary(of: value))
            case .failure(let error): record("completion", operation, Self.summary(of: error))
            }
        }
    }

    static func summary(of error: SessionError) -> String { error.code.rawValue }

    static func summary(of value: Any) -> String {
        switch value {
        case is String: "token"
        case let info as UserInfo: "sub=\(info.sub)"
        case let permissions as PermissionReadResponse: permissions.statusCode.rawValue
        case let identifiers as SubjectIdentifiers: "tpid=\(identifiers.tpId ?? "-")"
        case let flag as Bool: "\(flag)"
        case let accounts as [Account]: "accounts=" + accounts.map(\.subject).joined(separator: ",")
        default: "success"
        }
    }

    private static let queueNameKey = DispatchSpecificKey<String>()

    /// Names `queue` for recorded events. Events on other queues show `main` on the main
    /// thread and `unnamed` elsewhere.
    public static func name(_ queue: DispatchQueue, _ name: String) {
        queue.setSpecific(key: queueNameKey, value: name)
    }

    private static func currentQueueLabel() -> String {
        DispatchQueue.getSpecific(key: queueNameKey) ?? (Thread.isMainThread ? "main" : "unnamed")
    }
}

/// A ``SessionServiceDelegate`` that records every callback into a ``CallbackLog``.
///
/// ```swift
/// let log = CallbackLog()
/// let listener = RecordingListener("A", log: log)
/// service.registerListener(listener)
/// service.fetchUserInfo(completion: log.completion("fetchUserInfo"))
/// let events = await log.waitForEvents(2)
/// XCTAssertEqual(log.transcript, ["A.didFetchUserInfo(sub=erika)", "completion.fetchUserInfo(sub=erika)"])
/// ```
public final class RecordingListener: SessionServiceDelegate, Sendable {
    /// The name transcripts show for this listener.
    public let name: String
    /// Where the callbacks go.
    public let log: CallbackLog

    /// Creates a listener named `name` recording into `log`.
    public init(_ name: String = "listener", log: CallbackLog = CallbackLog()) {
        self.name = name
        self.log = log
    }

    private func record(_ callback: String, _ payload: String = "") { log.record(name, callback, payload) }

    /// Records `didFinishInitializationWithError(nil | code)`.
    public func didFinishInitializationWithError(_ error: SessionError?) {
        record("didFinishInitializationWithError", error.map(CallbackLog.summary(of:)) ?? "nil")
    }
    /// Records `didFinishAuthentication(token)`; the token itself is never recorded.
    public func didFinishAuthentication(_ accessToken: String) { record("didFinishAuthentication", "token") }
    /// Records the error code.
    public func didFinishAuthenticationWithError(_ error: SessionError) {
        record("didFinishAuthenticationWithError", CallbackLog.summary(of: error))
    }
    /// Records the error code.
    public func didCancelAuthentication(_ error: SessionError) { record("didCancelAuthentication", CallbackLog.summary(of: error)) }
    /// Records `sub=...`.
    public func didFetchUserInfo(_ userInfo: UserInfo) { record("didFetchUserInfo", CallbackLog.summary(of: userInfo)) }
    /// Records the error code.
    public func didFetchUserInfoWithError(_ error: SessionError) { record("didFetchUserInfoWithError", CallbackLog.summary(of: error)) }
    /// Records the status code.
    public func didFetchPermissions(_ permissions: PermissionReadResponse) {
        record("didFetchPermissions", CallbackLog.summary(of: permissions))
    }
    /// Records the permission status and the error code.
    public func didFetchPermissionsWithError(_ status: PermissionCenterStatus, _ error: SessionError) {
        record("didFetchPermissionsWithError", "\(status.rawValue), \(CallbackLog.summary(of: error))")
    }
    /// Records `tpid=...`.
    public func didUpdatePermissions(_ subjectIdentifiers: SubjectIdentifiers) {
        record("didUpdatePermissions", CallbackLog.summary(of: subjectIdentifiers))
    }
    /// Records the permission status and the error code.
    public func didUpdatePermissionsWithError(_ status: PermissionCenterStatus, _ error: SessionError) {
        record("didUpdatePermissionsWithError", "\(status.rawValue), \(CallbackLog.summary(of: error))")
    }
    /// Records `didEndSession()`.
    public func didEndSession() { record("didEndSession") }
    /// Records the error code.
    public func didEndSessionWithError(_ error: SessionError) { record("didEndSessionWithError", CallbackLog.summary(of: error)) }
    /// Records `didRefreshSession(token)` (never the token itself).
    public func didRefreshSession(_ accessToken: String) { record("didRefreshSession", "token") }
    /// Records the error code.
    public func didLoseSession(_ error: SessionError) { record("didLoseSession", CallbackLog.summary(of: error)) }
    /// Records the error code.
    public func didFailToEndProviderSession(_ error: SessionError) { record("didFailToEndProviderSession", CallbackLog.summary(of: error)) }
    /// Records `didReceiveDeviceAuthorization(code)` (the user code is not a secret, but varies).
    public func didReceiveDeviceAuthorization(_ authorization: DeviceAuthorization) { record("didReceiveDeviceAuthorization", "code") }
}
