import Foundation

/// Where a session's tokens live between launches.
///
/// Every method throws on failure — a store never pretends to have saved. ``SessionClient``
/// saves a rotated refresh token before any caller sees the new tokens, and treats a failed save
/// as the end of the session.
public protocol TokenStore: Sendable {
    /// The stored tokens, or nil when none are stored.
    /// - Throws: ``SessionError`` `storageFailed` when the store cannot be read, `storageCorrupt`
    ///   when what it holds is not a session of this client.
    func load() async throws -> SessionTokens?
    /// Replaces the stored tokens.
    func save(_ tokens: SessionTokens) async throws
    /// Removes the stored tokens; succeeds when there were none.
    func clear() async throws
}
