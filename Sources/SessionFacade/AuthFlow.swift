import SessionCore

/// Which grant an authorization asks for, in netID's terms, which the facade's
/// `getAuthorization(flow:)` keeps: each flow is a set of scopes, asked for before the
/// configuration's own. The core speaks scopes (`SessionClient.signIn(scopes:agent:)`).
public enum AuthFlow: String, Sendable, Equatable, CaseIterable {
    /// Sign-in only: scope `openid`.
    case login
    /// Permission management only: scope `permission_management`, no ID token.
    case permission
    /// Both: scopes `openid` and `permission_management`.
    case loginPermission

    /// The scopes this flow contributes before the configured ones.
    public var scopes: [String] {
        switch self {
        case .login: ["openid"]
        case .permission: ["permission_management"]
        case .loginPermission: ["openid", "permission_management"]
        }
    }

    /// True when the flow yields an ID token that must be validated.
    public var requestsIDToken: Bool { self != .permission }

    /// The scopes sent for this flow with `configuration`: the flow's own, then the configured
    /// ones, without repeats.
    public func scopes(with configuration: SessionConfiguration) -> [String] {
        var seen = Set<String>()
        return (scopes + configuration.scopes).filter { seen.insert($0).inserted }
    }
}
