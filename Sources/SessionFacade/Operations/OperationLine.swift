import Dispatch
import SessionCore

/// The facade's operation line: operations run one at a time in call order (C4), each
/// delivering its outcomes as one unit (C3) on the callback queue, one block after another,
/// in the order handed in (C1), whatever thread called.
///
/// One lock guards the waiting operations, the running one and the deliveries not yet run, so
/// an operation that ends hands over its outcomes and starts the next in one step. Operations
/// called faster than they complete run one after another on the same task; an authorization
/// runs on a task of its own, which its handle cancels (``AuthorizationSession/attach(_:)``).
/// Deliveries that pile up run in one block on the callback queue, a few dozen at a time.
final class OperationLine: Sendable {
    private struct Running: Sendable {
        let authorization: AuthorizationSession?
    }

    private struct State: Sendable {
        var queued = FIFO<QueuedOperation>()
        var running: Running?
        var deliveries = FIFO<@Sendable () -> Void>()
        /// Whether a block on the callback queue is running deliveries, or about to.
        var delivering = false
    }

    /// Deliveries one block on the callback queue runs before it lets the queue's other work in.
    private static let deliveriesPerTurn = 32

    private let state = Locked(State())
    private let listeners: ListenerRegistry
    private let queue: @Sendable () -> DispatchQueue

    /// - Parameters:
    ///   - listeners: who hears each delivery, asked as it runs.
    ///   - queue: the callback queue, asked again for every block.
    init(listeners: ListenerRegistry, queue: @escaping @Sendable () -> DispatchQueue) {
        self.listeners = listeners
        self.queue = queue
    }

    /// Appends `operation` and starts it when the line is idle.
    func enqueue(_ operation: QueuedOperation) {
        let start = state.withLock { state -> QueuedOperation? in
            state.queued.append(operation)
            return Self.takeNext(&state)
        }
        if let start { begin(start) }
    }

    /// Puts `operation` on the line in `endSession`'s way (C7), in one step: no operation called
    /// meanwhile can slip between the waiting ones ending and this one taking its place. A
    /// waiting operation keeps its place and reports `sessionEnded` there, so outcomes stay in
    /// call order; one that ``OperationKind/survivesEndSession`` still runs.
    /// - Returns: the handle of the authorization running now, for the caller to end (outside
    ///   the lock: ending it cancels its task, whose handlers may lock too).
    func jump(with operation: QueuedOperation) -> AuthorizationSession? {
        let (start, authorization) = state.withLock { state -> (QueuedOperation?, AuthorizationSession?) in
            state.queued.update { $0.kind.survivesEndSession ? $0 : $0.ended() }
            state.queued.append(operation)
            let authorization = state.running?.authorization
            return (Self.takeNext(&state), authorization)
        }
        if let start { begin(start) }
        return authorization
    }

    /// The handle of the authorization that runs now, if one does.
    var runningAuthorization: AuthorizationSession? { state.withLock { $0.running?.authorization } }

    /// Hands `deliveries` to the callback queue as one unit, outside any operation's outcome:
    /// events, a device sign-in's code, the URL of the external-resume path.
    func deliver(_ deliveries: [Delivery]) {
        guard !deliveries.isEmpty else { return }
        let blocks = deliveries.map { $0.block(listeners: listeners) }
        if state.withLock({ Self.append(blocks, &$0) }) { dispatchDeliveries() }
    }

    /// Makes the next waiting operation the running one, when none runs.
    private static func takeNext(_ state: inout State) -> QueuedOperation? {
        guard state.running == nil, let operation = state.queued.popFirst() else { return nil }
        state.running = Running(authorization: operation.authorization)
        return operation
    }

    /// Queues delivery blocks; true when the callback queue must be asked to run them.
    private static func append(_ blocks: [@Sendable () -> Void], _ state: inout State) -> Bool {
        state.deliveries.append(contentsOf: blocks)
        guard !state.delivering else { return false }
        state.delivering = true
        return true
    }

    /// Starts `operation`, the running one, on a task of its own. (Starting it on the caller's
    /// thread, `Task.immediate`, saves nothing: its first call into the client's actor moves to
    /// a pool thread all the same.)
    private func begin(_ operation: QueuedOperation) {
        let task = Task { [self] in await perform(operation) }
        operation.authorization?.attach(task)
    }

    /// Runs `operation`, hands its outcomes to the callback queue, and goes on with the operations
    /// waiting behind it on the same task — unless one of them is an authorization, whose task
    /// must be its own, or this one was.
    private func perform(_ operation: QueuedOperation) async {
        var current = operation
        while true {
            let outcomes = await current.run().map { $0.block(listeners: listeners) }
            let (next, dispatch) = state.withLock { state -> (QueuedOperation?, Bool) in
                let dispatch = outcomes.isEmpty ? false : Self.append(outcomes, &state)
                state.running = nil
                return (Self.takeNext(&state), dispatch)
            }
            if dispatch { dispatchDeliveries() }
            guard let next else { return }
            guard current.authorization == nil, next.authorization == nil else { return begin(next) }
            current = next
        }
    }

    /// Runs the waiting deliveries on the callback queue, a turn's worth per block.
    private func dispatchDeliveries() {
        queue().async { [self] in
            let turn = state.withLock { state -> [@Sendable () -> Void] in
                var turn: [@Sendable () -> Void] = []
                while turn.count < Self.deliveriesPerTurn, let block = state.deliveries.popFirst() { turn.append(block) }
                return turn
            }
            for block in turn { block() }
            let more = state.withLock { state -> Bool in
                if state.deliveries.isEmpty { state.delivering = false }
                return state.delivering
            }
            if more { dispatchDeliveries() }
        }
    }
}
