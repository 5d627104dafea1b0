import SessionCore
import SessionWebAuthentication

/// Which agent a legacy API shows its sign-in page with: the platform's default until the app
/// sets one (nil included, which means the app opens the page itself).
package enum AgentChoice: Sendable {
    /// ``PlatformDefaults/authorizationAgent(presentingFrom:)``, shown from the view controller
    /// the legacy call names.
    case platformDefault
    /// The agent the app set.
    case chosen((any AuthorizationAgent)?)

    /// What the legacy `authorizationAgent` property reads.
    package var agent: (any AuthorizationAgent)? {
        agent(presentingFrom: nil)
    }

    /// The agent for a sign-in started from `anchor`.
    package func agent(presentingFrom anchor: PresentationAnchor?) -> (any AuthorizationAgent)? {
        switch self {
        case .platformDefault: PlatformDefaults.authorizationAgent(presentingFrom: anchor)
        case .chosen(let agent): agent
        }
    }
}
