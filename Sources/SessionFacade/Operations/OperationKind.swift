import SessionCore

/// What kind of operation runs; ``SessionService/endSession(revokeTokens:completion:)`` and
/// ``SessionService/cancelAuthorization()`` treat authorizations and sign-outs specially.
enum OperationKind: Sendable {
    case initialize, authorization, userInfo, permissionRead, permissionWrite, endSession, tokenChange
    /// Listing, switching or removing one of several accounts.
    case accounts
    /// No work: it only delivers (`enqueueCallback`, an operation `endSession` ended).
    case deliveryOnly

    /// The process its errors belong to.
    var process: SessionError.Process {
        switch self {
        case .initialize, .deliveryOnly: .configuration
        case .authorization, .tokenChange, .accounts: .authentication
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
        case .authorization, .userInfo, .permissionRead, .permissionWrite, .tokenChange, .accounts: false
        }
    }
}
