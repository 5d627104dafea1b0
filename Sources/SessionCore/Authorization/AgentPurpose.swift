/// What a page an agent shows is for.
public enum AgentPurpose: Sendable, Equatable {
    /// An authorization request: the user signs in and consents.
    case signIn
    /// The provider's sign-out page of an RP-initiated logout.
    case signOut
}
