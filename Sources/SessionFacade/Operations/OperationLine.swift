import Foundation
import SessionCore

/// What kind of operation runs; ``SessionService/endSession(revokeTokens:completion:)`` and
/// ``SessionService/cancelAuthorization()`` treat authorizations and sign-outs specially.
enum OperationKind: Sendable {
    case initialize, authorization, userInfo, permissionRead, permissionWrite, endSession, tokenChange
    /// No work: it only delivers (``SessionService/enqueueCallback(_:)``, an operation `endSession` ended).
    case deliveryOnly
}

/// An operation waiting its turn: its work, and how it reports a failure it never got to run
/// into (`sessionEnded` when `endSession` jumps the queue).
struct QueuedOperation: Sendable {
    let kind: OperationKind
    let process: SessionError.Process
    /// Does the work and returns what to deliver, in order, as one unit.
    let run: @Sendable () async -> [Delivery]
    /// The outcome when the operation is dropped with `error`.
    let fail: @Sendable (SessionError) -> Delivery

    /// The same operation ended by `endSession` before it ran: in its place, it reports `sessionEnded`.
    func ended() -> QueuedOperation {
        let outcome = fail(SessionService.sessionEnded(process))
        return QueuedOperation(kind: .deliveryOnly, process: process, run: { [outcome] }, fail: fail)
    }
}

/// The operation in progress, and what was asked of it while it ran.
struct RunningOperation {
    let kind: OperationKind
    var task: Task<Void, Never>?
    /// `endSession` was called: the outcome becomes `sessionEnded`.
    var ending = false
    /// `cancelAuthorization()` was called: a failure becomes `cancelled`.
    var cancelling = false
}

/// A redirect the external-resume path waits for (rule C13).
struct PendingResume {
    let redirectURI: URL
    let continuation: CheckedContinuation<URL, Error>
}
