import Dispatch
import Foundation

/// Runs delivery blocks on the callback queue one at a time, in the order they were handed in
/// (rules C1, C3 and C4): a block is dispatched only after the previous one has returned, so a
/// concurrent queue still sees serial delivery, and nothing runs on the caller's stack.
///
/// `@unchecked Sendable`: `pending` and `busy` are read and written only while holding `lock`.
final class DeliveryLine: @unchecked Sendable {
    private let lock = NSLock()
    private var pending = FIFO<@Sendable () -> Void>()
    private var busy = false
    private let queue: @Sendable () -> DispatchQueue

    /// - Parameter queue: the queue to dispatch to, asked again for every block.
    init(queue: @escaping @Sendable () -> DispatchQueue) {
        self.queue = queue
    }

    /// Appends `blocks` to the line as one unit: nothing handed in later runs between them.
    func enqueue(_ blocks: [@Sendable () -> Void]) {
        guard !blocks.isEmpty else { return }
        let start = lock.withLock { () -> Bool in
            pending.append(contentsOf: blocks)
            if busy { return false }
            busy = true
            return true
        }
        if start { dispatchNext() }
    }

    private func dispatchNext() {
        queue().async { [self] in
            let block = lock.withLock { pending.popFirst() }
            block?()
            let more = lock.withLock { () -> Bool in
                if pending.isEmpty { busy = false }
                return busy
            }
            if more { dispatchNext() }
        }
    }
}
