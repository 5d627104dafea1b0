import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Starts a `URLSessionTask` unless its call was cancelled first, and cancels it only once
/// started, so that a task's end is reported only after whoever waits for it is in place.
///
/// `@unchecked Sendable`: `task` and `cancelled` are read and written only while holding `lock`;
/// `URLSessionTask` is thread-safe for `resume()` and `cancel()`.
final class TaskHandle: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionTask?
    private var cancelled = false

    /// Resumes `task`; false, without touching it, when the call was cancelled before.
    func start(_ task: URLSessionTask) -> Bool {
        guard lock.withLock({ () -> Bool in
            if cancelled { return false }
            self.task = task
            return true
        }) else { return false }
        task.resume()
        return true
    }

    /// Cancels the task if it started; otherwise ``start(_:)`` will not start it.
    func cancel() {
        lock.withLock { () -> URLSessionTask? in
            cancelled = true
            return task
        }?.cancel()
    }
}
