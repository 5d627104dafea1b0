/// Links a call's cancellation to the work it starts (a libcurl transfer, a `URLSessionTask`),
/// whichever comes first: work registered after the call was cancelled is never started, and
/// a cancellation after registration reaches the work.
///
/// The work is held weakly: whoever runs it keeps it alive (the curl driver, the URL session),
/// and the work may hold its link without the two keeping each other alive after it ends.
final class CancellationLink<Work: AnyObject & Sendable>: Sendable {
    private struct State: Sendable {
        var cancelled = false
        weak var work: Work?
    }

    private let state = Locked(State())

    /// Records `work` as the call's; false when the call was already cancelled, and the work must
    /// not start.
    func register(_ work: Work) -> Bool {
        state.withLock { state in
            if state.cancelled { return false }
            state.work = work
            return true
        }
    }

    /// Marks the call cancelled and returns its work, if it was registered and still runs.
    func cancel() -> Work? {
        state.withLock { state in
            state.cancelled = true
            return state.work
        }
    }

    /// Whether the call was cancelled.
    var isCancelled: Bool { state.withLock { $0.cancelled } }
}
