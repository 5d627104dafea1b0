import Foundation
import SessionCore

/// Where web sessions are kept: a record per browser login and its tokens, under the session's
/// ``WebSessionID``. ``InMemoryWebSessionStore`` serves one instance; a store every instance of a
/// service shares (a database) lets any instance serve any session.
///
/// Every call may throw `SessionError` `storageFailed`; the layer then refuses the request it
/// serves rather than guess.
public protocol WebSessionStore: Sendable {
    /// Keeps a new session with its first tokens.
    func insert(_ record: WebSessionRecord, tokens: SessionTokens) async throws
    /// The record of `id`; nil when there is none (never created, ended, or swept).
    func record(_ id: WebSessionID) async throws -> WebSessionRecord?
    /// Notes that `id` was used at `date` (its idle lifetime starts again).
    func touch(_ id: WebSessionID, at date: Date) async throws
    /// Takes `id` out of the store, with its last tokens; nil when it was not there.
    func remove(_ id: WebSessionID) async throws -> RemovedWebSession?
    /// The sessions of `subject`, newest first.
    func records(ofSubject subject: String) async throws -> [WebSessionRecord]
    /// The sessions of the provider's session `providerSessionID` (its `sid`).
    func records(ofProviderSession providerSessionID: String) async throws -> [WebSessionRecord]
    /// Takes out at most `limit` sessions last used before `idleBefore` or created before
    /// `createdBefore`, with their last tokens; forgets the logout tokens past their expiry too,
    /// so noting one stays a lookup by its key.
    func removeExpired(idleBefore: Date, createdBefore: Date, limit: Int) async throws -> [RemovedWebSession]
    /// Remembers the logout token `id` (its `jti`) until `expiry`; false when it was remembered
    /// already (a replay), so a token is taken once across every instance.
    func noteLogoutToken(_ id: String, until expiry: Date) async throws -> Bool
    /// Forgets the logout token `id` that ``noteLogoutToken(_:until:)`` remembered: its logout
    /// could not be carried out, and the provider's next delivery of it must be taken.
    func forgetLogoutToken(_ id: String) async throws
    /// The `TokenStore` of `id`'s tokens, for the `SessionClient` that refreshes them. Saving
    /// into a session that is no longer there fails, so a refresh that lands after a sign-out
    /// brings nothing back; clearing it ends the session.
    func tokenStore(for id: WebSessionID) -> TokenStore
}
