#if canImport(CLibCurl)
/// Links a call's cancellation to its transfer, whichever comes first: a transfer registered
/// after the call was cancelled is never started, and the driver checks ``isCancelled`` before
/// starting one whose cancellation raced with its start.
final class CurlCancellation: Sendable {
    private let state = Locked<(cancelled: Bool, transfer: CurlTransfer?)>((false, nil))

    /// Records `transfer` as the call's; false when the call was already cancelled.
    func register(_ transfer: CurlTransfer) -> Bool {
        state.withLock { state in
            if state.cancelled { return false }
            state.transfer = transfer
            return true
        }
    }

    /// Marks the call cancelled and returns its transfer, if one was registered.
    func cancel() -> CurlTransfer? {
        state.withLock { state in
            state.cancelled = true
            return state.transfer
        }
    }

    /// Whether the call was cancelled.
    var isCancelled: Bool { state.withLock { $0.cancelled } }
}
#endif
