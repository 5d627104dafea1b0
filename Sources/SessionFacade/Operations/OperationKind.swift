import SessionCore

/// What kind of operation runs: the process its errors belong to, and whether
/// ``SessionService/endSession(revokeTokens:completion:)`` lets it run when it jumps the queue.
struct OperationKind: Sendable {
    /// The process its errors belong to.
    let process: SessionError.Process
    /// Whether a waiting operation of this kind still runs when `endSession` jumps the queue (C7):
    /// an initialize (the service stays initialized), another sign-out, a plain delivery.
    let survivesEndSession: Bool

    static let initialize = OperationKind(process: .configuration, survivesEndSession: true)
    static let authorization = OperationKind(process: .authentication, survivesEndSession: false)
    static let userInfo = OperationKind(process: .userInfo, survivesEndSession: false)
    static let permissionRead = OperationKind(process: .permissionRead, survivesEndSession: false)
    static let permissionWrite = OperationKind(process: .permissionWrite, survivesEndSession: false)
    static let endSession = OperationKind(process: .endSession, survivesEndSession: true)
    /// Reading or replacing the session's tokens (the calls only the completion hears of).
    static let tokenChange = OperationKind(process: .authentication, survivesEndSession: false)
    /// Listing, switching or removing one of several accounts.
    static let accounts = OperationKind(process: .authentication, survivesEndSession: false)
    /// No work: it only delivers (`enqueueCallback`, an operation `endSession` ended).
    static let deliveryOnly = OperationKind(process: .configuration, survivesEndSession: true)
}
