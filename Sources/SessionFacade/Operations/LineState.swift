import Foundation
import SessionCore
import SessionPermissions

/// What kind of operation runs; ``SessionService/endSession(revokeTokens:completion:)`` and
/// ``SessionService/cancelAuthorization()`` treat authorizations and sign-outs specially.
enum OperationKind: Sendable {
    case initialize, authorization, userInfo, permissionRead, permissionWrite, endSession, tokenChange
    /// No work: it only delivers (`enqueueCallback`, an operation `endSession` ended).
    case deliveryOnly

    /// The process its errors belong to.
    var process: SessionError.Process {
        switch self {
        case .initialize, .deliveryOnly: .configuration
        case .authorization, .tokenChange: .authentication
        case .userInfo: .userInfo
        case .permissionRead: .permissionRead
        case .permissionWrite: .permissionWrite
        case .endSession: .endSession
        }
    }

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
    /// The sign-in's handle, for an authorization: what `cancelAuthorization`, `resumeSession`
    /// and `endSession` reach once it runs.
    var authorization: AuthorizationSession?
    /// Does the work and returns what to deliver, in order, as one unit.
    let run: @Sendable () async -> [Delivery]
    /// The outcome when the operation is dropped with `error`.
    let fail: @Sendable (SessionError) -> Delivery

    /// The same operation ended by `endSession` before it ran: in its place, it reports `sessionEnded`.
    func ended() -> QueuedOperation {
        let outcome = fail(SessionService.sessionEnded(kind.process))
        return QueuedOperation(kind: .deliveryOnly, run: { [outcome] }, fail: fail)
    }
}

extension QueuedOperation {
    /// An operation with one outcome: `outcome` turns its result into the delivery, the same
    /// whether `run` produced the result or the operation never ran.
    init<T: Sendable>(kind: OperationKind, authorization: AuthorizationSession? = nil,
                      outcome: @escaping @Sendable (Result<T, SessionError>) -> Delivery,
                      run: @escaping @Sendable () async -> Result<T, SessionError>) {
        self.init(kind: kind, authorization: authorization, run: { [outcome(await run())] }, fail: { outcome(.failure($0)) })
    }
}

/// The operation in progress.
struct RunningOperation: Sendable {
    let kind: OperationKind
    /// The sign-in's handle, for an authorization.
    let authorization: AuthorizationSession?
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
    /// Where a legacy SDK's session may be waiting to be carried over, as the app or a Compat
    /// module said (``SessionService/carryOverLegacySession(from:)``).
    var legacySessionSource: (any LegacySessionSource)?
}
