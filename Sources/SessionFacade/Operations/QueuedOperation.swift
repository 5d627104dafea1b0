import SessionCore

/// An operation waiting its turn: its work, and how it reports a failure it never got to run
/// into (`sessionEnded` when `endSession` jumps the queue).
struct QueuedOperation: Sendable {
    let kind: OperationKind
    /// The sign-in's handle, for an authorization: what `cancelAuthorization`, `resumeSession`
    /// and `endSession` reach once it runs. The operation runs on a task of its own, which the
    /// handle cancels.
    let authorization: AuthorizationSession?
    /// Does the work and returns what to deliver, in order, as one unit.
    let run: @Sendable () async -> [Delivery]
    /// The outcome when the operation is dropped with `error`.
    let fail: @Sendable (SessionError) -> Delivery

    init(kind: OperationKind, authorization: AuthorizationSession? = nil, run: @escaping @Sendable () async -> [Delivery],
         fail: @escaping @Sendable (SessionError) -> Delivery) {
        self.kind = kind
        self.authorization = authorization
        self.run = run
        self.fail = fail
    }

    /// The same operation ended by `endSession` before it ran: in its place, it reports `sessionEnded`.
    func ended() -> QueuedOperation {
        let outcome = fail(SessionService.sessionEnded(kind.process))
        return QueuedOperation(kind: .deliveryOnly, run: { [outcome] }, fail: fail)
    }
}
