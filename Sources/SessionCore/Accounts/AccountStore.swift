import Foundation

/// Where the sessions of several accounts at one provider are kept, each apart from the others:
/// ``FileAccountStore``, ``KeychainAccountStore``, ``InMemoryAccountStore`` and `SecretServiceAccountStore` in
/// `SessionKeyring` (``PlatformDefaults/accountStore(for:)`` chooses for the platform).
public protocol AccountStore: Sendable {
    /// The token store of the account with `subject`: one session, as a ``TokenStore`` keeps it.
    func tokenStore(forSubject subject: String) throws -> TokenStore
    /// The sessions kept, one per account, in no particular order; one that cannot be read, or
    /// that is not where its subject's session belongs, is left out.
    func storedSessions() async throws -> [SessionTokens]
}
