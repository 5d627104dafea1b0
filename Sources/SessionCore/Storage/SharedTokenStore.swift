import Foundation

/// A ``TokenStore`` several processes may use for one session at once (a CLI run twice, an app
/// and its extensions, the workers of one service): it says so (``TokenStore/isShared`` is true
/// unless it overrides it) and implements ``TokenStore/withRefreshLock(_:)`` with a lock they all
/// see. Conforming to it is how a store states both at once; the client asks only what
/// ``TokenStore`` declares.
///
/// A lock holder that dies releases the lock with its death; the in-flight mark it stored then
/// tells the next holder that the refresh token may be spent, and it is not sent again unless the
/// provider says it is still good (introspection, or a reuse interval).
public protocol SharedTokenStore: TokenStore {
    /// Runs `body` while holding the store's cross-process refresh lock, waiting for it first.
    /// - Throws: `storageFailed` when the lock cannot be taken; `body`'s errors.
    func withRefreshLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T
}

extension SharedTokenStore {
    /// True: the store is shared (a store shared only when so configured says otherwise).
    public var isShared: Bool { true }
}
