import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Starts a `URLSessionTask` unless its call was cancelled first, and cancels it only once
/// started, so that a task's end is reported only after whoever waits for it is in place.
final class TaskHandle: Sendable {
    private let state = Locked<(task: URLSessionTask?, cancelled: Bool)>((nil, false))

    /// Resumes `task`; false, without touching it, when the call was cancelled before.
    func start(_ task: URLSessionTask) -> Bool {
        guard state.withLock({ state -> Bool in
            if state.cancelled { return false }
            state.task = task
            return true
        }) else { return false }
        task.resume()
        return true
    }

    /// Cancels the task if it started; otherwise ``start(_:)`` will not start it.
    func cancel() {
        state.withLock { state -> URLSessionTask? in
            state.cancelled = true
            return state.task
        }?.cancel()
    }
}
