import Dispatch
import Foundation
import SessionCore

/// Runs delivery blocks on the callback queue one at a time, in the order they were handed in
/// (rules C1, C3 and C4): a block is dispatched only after the previous one has returned, so a
/// concurrent queue still sees serial delivery, and nothing runs on the caller's stack.
final class DeliveryLine: Sendable {
    private let state = Locked((pending: FIFO<@Sendable () -> Void>(), busy: false))
    private let queue: @Sendable () -> DispatchQueue

    /// - Parameter queue: the queue to dispatch to, asked again for every block.
    init(queue: @escaping @Sendable () -> DispatchQueue) {
        self.queue = queue
    }

    /// Appends `blocks` to the line as one unit: nothing handed in later runs between them.
    func enqueue(_ blocks: [@Sendable () -> Void]) {
        guard !blocks.isEmpty else { return }
        let start = state.withLock { line -> Bool in
            line.pending.append(contentsOf: blocks)
            if line.busy { return false }
            line.busy = true
            return true
        }
        if start { dispatchNext() }
    }

    private func dispatchNext() {
        queue().async { [self] in
            let block = state.withLock { $0.pending.popFirst() }
            block?()
            let more = state.withLock { line -> Bool in
                if line.pending.isEmpty { line.busy = false }
                return line.busy
            }
            if more { dispatchNext() }
        }
    }
}
