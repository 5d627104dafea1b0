import Foundation
import SessionCore
import SessionPermissions

/// What kind of operation runs; ``SessionService/endSession(revokeTokens:completion:)`` and
/// ``SessionService/cancelAuthorization()`` treat authorizations and sign-outs specially.
enum OperationKind: Sendable {
    case initialize, authorization, userInfo, permissionRead, permissionWrite, endSession, tokenChange
    /// No work: it only delivers (`enqueueCallback`, an operation `endSession` ended).
    case deliveryOnly

    /// Whether a waiting operation of this kind still runs when `endSession` jumps the queue (C7):
    /// an initialize (the service stays initialized), another sign-out, a plain delivery.
    var survivesEndSession: Bool {
        switch self {
        case .initialize, .endSession, .deliveryOnly: true
        case .authorization, .userInfo, .permissionRead, .permissionWrite, .tokenChange: false
        }
    }
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
struct RunningOperation: Sendable {
    let kind: OperationKind
    /// Its task, for an authorization (the one task `cancelAuthorization` and `endSession` cancel).
    var task: Task<Void, Never>?
    /// `endSession` was called: the outcome becomes `sessionEnded`.
    var ending = false
    /// `cancelAuthorization()` was called: a failure becomes `cancelled`.
    var cancelling = false
}

/// The operation line's state, behind the service's `line` lock.
struct LineState: Sendable {
    var queued = FIFO<QueuedOperation>()
    var running: RunningOperation?
    var client: SessionClient?
    /// Where the permission operations go, as `initialize` was given.
    var permissionCenter: PermissionCenterEndpoints?
    /// Why the last `initialize` failed, named in later `notInitialized` errors.
    var initializationFailure: SessionError?
}
