import Foundation
import SessionCore

extension LocalProvider {
    /// What the (scripted) user does on the authorization page.
    public enum ConsentDecision: Sendable, Equatable {
        /// Signs in as the first user and approves: the redirect carries a code.
        case approve
        /// Signs in as the user with this subject and approves.
        case approveAs(subject: String)
        /// Refuses: the redirect carries `error=access_denied`.
        case deny
        /// Closes the page: no redirect happens (the provider shows a page with no way on).
        case cancel
    }
}
