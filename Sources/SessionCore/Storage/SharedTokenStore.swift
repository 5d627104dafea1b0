import Foundation

/// A ``TokenStore`` that several processes may use for one session at once (a CLI run twice, an
/// app and its extensions, the workers of one service), because it offers a lock they all see.
///
/// ``SessionClient`` takes the lock around each refresh — read the stored session, refresh if it
/// still needs it, save — and never on the path where the access token is fresh. A client that
/// gets the lock after another process rotated the tokens adopts the stored ones instead of
/// refreshing, so a rotating refresh token is spent once, however many processes wanted it; a
/// provider's reuse detection would otherwise revoke the whole grant. A lock holder that dies
/// releases the lock with its death; the in-flight mark it stored then tells the next holder that
/// the refresh token may be spent, and it is not sent again.
public protocol SharedTokenStore: TokenStore {
    /// Runs `body` while holding the store's cross-process refresh lock, waiting for it first.
    /// - Throws: `storageFailed` when the lock cannot be taken; `body`'s errors.
    func withRefreshLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T

    /// Whether other processes may use the session now (true by default). A store that is shared
    /// only when so configured says false otherwise, and the client then skips what sharing costs
    /// (looking for a sign-out elsewhere at each call).
    var isShared: Bool { get }

    /// For a store across the network (a database), which cannot answer at every call for free:
    /// how long, in seconds, the client may use a session it read from the store, on the path where
    /// the access token is fresh, before it reads the store again to find a sign-out or another
    /// account's sign-in elsewhere (a session found gone or replaced then ends here too; one another
    /// process refreshed is adopted). 0 reads it at every call. nil (the default): a store on this
    /// device, which answers at once (``LocalTokenStore``) and is looked at every call, or none.
    var storedSessionRecheckInterval: TimeInterval? { get }
}

extension SharedTokenStore {
    /// True: the store is always shared.
    public var isShared: Bool { true }

    /// nil: the store is on this device, or never changed by others between refreshes.
    public var storedSessionRecheckInterval: TimeInterval? { nil }
}
