/// Which grant an authorization asks for, in the netID sense.
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
}
