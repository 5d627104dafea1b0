import Foundation

/// Where the sessions of several accounts at one provider are kept, each apart from the others
/// (``FileAccountStore``).
public protocol AccountStore: Sendable {
    /// The token store of the account with `subject`: one session, as a ``TokenStore`` keeps it.
    func tokenStore(forSubject subject: String) throws -> TokenStore
    /// The subjects of the accounts whose sessions are kept, in no particular order.
    func storedSubjects() async throws -> [String]
}
