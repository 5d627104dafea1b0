import Foundation

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
