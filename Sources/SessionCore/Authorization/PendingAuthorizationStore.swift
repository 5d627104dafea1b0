import Foundation

/// Where a server keeps the sign-ins it began, so that whichever server the browser comes back to
/// can finish them (``SessionClient/beginAuthorization(scopes:keepingPendingIn:lifetime:)``): the
/// server-side alternative to a ``SealedAuthorization`` in a cookie. A record is kept under a
/// digest of its request's `state` and taken once — read and deleted in one step, so two servers
/// that get the same callback cannot both finish it.
///
/// `PostgresPendingAuthorizations` (SessionPostgres) keeps them in the fleet's database;
/// ``InMemoryPendingAuthorizationStore`` in one process.
public protocol PendingAuthorizationStore: Sendable {
    /// Keeps `record` under `key` until `expiresAt` (a store may drop it any time after).
    /// - Throws: `storageFailed` when it cannot be kept.
    func keep(_ record: Data, key: String, expiresAt: Date) async throws

    /// Takes the record kept under `key` out of the store: it is gone afterwards, for every
    /// server. nil when there is none (never kept, already taken, or dropped after it expired).
    /// - Throws: `storageFailed` when the store cannot be read.
    func take(key: String) async throws -> Data?
}
