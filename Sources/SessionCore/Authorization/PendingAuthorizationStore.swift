import Foundation

/// Where a server keeps the sign-ins it began, so that whichever server the browser comes back to
/// can finish them (``SessionClient/beginAuthorization(scopes:keepingIn:lifetime:)`` with ``PendingAuthorizationPlace/store(_:)``): the
/// server-side alternative to a ``SealedAuthorization`` in a cookie. A record is kept under a
/// digest of its request's `state`, sealed under the ``BrowserBinding`` of the browser that began
/// it, and taken once — checked and deleted in one step, so two servers that get the same callback
/// cannot both finish it, and a browser without the binding cannot take it from the one with it.
///
/// `PostgresPendingAuthorizations` (SessionPostgres) keeps them in the fleet's database;
/// ``InMemoryPendingAuthorizationStore`` in one process.
public protocol PendingAuthorizationStore: Sendable {
    /// Keeps `record` under `key` until `expiresAt` (a store may drop it any time after).
    /// - Throws: `storageFailed` when it cannot be kept.
    func keep(_ record: Data, key: String, expiresAt: Date) async throws

    /// Takes the record kept under `key` out of the store if `check` accepts it: `check` is called
    /// with the record while nobody else can take it, and when it throws, the record stays where it
    /// is (for the browser that can open it) and its error is thrown. Once taken, a record is gone
    /// for every server. nil when there is none (never kept, already taken, or dropped after it
    /// expired).
    /// - Throws: what `check` throws; `storageFailed` when the store cannot be read.
    func take(key: String, checking check: @escaping @Sendable (Data) throws -> Void) async throws -> Data?

    /// Notes, until `expiresAt`, that the sign-in named `key` was finished — one that left no
    /// record here (a ``SealedAuthorization``, which the browser carries) — and says whether this
    /// is the first time: false when any server noted it before. A store shared by servers makes a
    /// sealed sign-in finish once across all of them, not once per server.
    /// - Throws: `storageFailed` when the store cannot be written.
    func noteFinished(key: String, expiresAt: Date) async throws -> Bool
}
