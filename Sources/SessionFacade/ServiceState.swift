import LegacySessionReaders
import SessionCore
import SessionPermissions

/// What the service knows beyond its operation line, behind a lock of its own: the client
/// `initialize` made and what came with it.
struct ServiceState: Sendable {
    var client: SessionClient?
    /// The accounts kept, when the service was made with an account store; ``client`` is then the
    /// session of ``currentAccount`` (or one without a session, when there is none).
    var accounts: AccountSessions?
    /// The account whose session ``client`` is, in a service of several accounts.
    var currentAccount: Account?
    /// Where the permission operations go, as `initialize` was given.
    var permissionCenter: PermissionCenterEndpoints?
    /// Why the last `initialize` failed, named in later `notInitialized` errors.
    var initializationFailure: SessionError?
    /// Where a legacy SDK's session may be waiting to be carried over, as the app or a Compat
    /// module said (``SessionService/carryOverLegacySession(from:)``).
    var legacySessionSource: (any LegacySessionSource)?
}
