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

/// A ``TokenStore`` in memory, for tests and for apps that keep no session across launches.
public actor InMemoryTokenStore: TokenStore {
    private var tokens: SessionTokens?

    /// Creates a store, optionally holding `tokens`.
    public init(_ tokens: SessionTokens? = nil) {
        self.tokens = tokens
    }

    /// The held tokens.
    public func load() async throws -> SessionTokens? { tokens }
    /// Holds `tokens`.
    public func save(_ tokens: SessionTokens) async throws { self.tokens = tokens }
    /// Forgets the tokens.
    public func clear() async throws { tokens = nil }
}
