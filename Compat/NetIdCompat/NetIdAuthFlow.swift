import SessionCore
import SessionFacade

/// The authorization flows of netID.
public enum NetIdAuthFlow: String, Sendable, CaseIterable {
    /// Scope `permission_management` only: a session for the permission center, without an ID token.
    case Permission
    /// Scope `openid` only: a sign-in.
    case Login
    /// Both scopes: a sign-in whose ID token carries the permission center's token.
    case LoginPermission

    var flow: AuthFlow {
        switch self {
        case .Permission: .permission
        case .Login: .login
        case .LoginPermission: .loginPermission
        }
    }
}
