/// One callback of netID's listener protocol, with its arguments, ready to be made on any number
/// of listeners.
enum NetIdCallback: Sendable {
    case initialized(NetIdError?)
    case authenticated(accessToken: String)
    case authenticationFailed(NetIdError?)
    case cancelled(NetIdError)
    case networkError(NetIdError)
    case userInfo(UserInfo)
    case userInfoFailed(NetIdError)
    case permissions(PermissionReadResponse)
    case permissionsFailed(PermissionResponseStatus, NetIdError)
    case permissionUpdated(SubjectIdentifiers)
    case permissionUpdateFailed(PermissionResponseStatus, NetIdError)
    case sessionEnded

    /// Calls the matching method of `listener`.
    func deliver(to listener: NetIdServiceDelegate) {
        switch self {
        case .initialized(let error): listener.didFinishInitializationWithError(error)
        case .authenticated(let accessToken): listener.didFinishAuthentication(accessToken)
        case .authenticationFailed(let error): listener.didFinishAuthenticationWithError(error)
        case .cancelled(let error): listener.didCancelAuthentication(error)
        case .networkError(let error): listener.didEncounterNetworkError(error)
        case .userInfo(let info): listener.didFetchUserInfo(info)
        case .userInfoFailed(let error): listener.didFetchUserInfoWithError(error)
        case .permissions(let response): listener.didFetchPermissions(response)
        case .permissionsFailed(let status, let error): listener.didFetchPermissionsWithError(status, error)
        case .permissionUpdated(let identifiers): listener.didUpdatePermission(identifiers)
        case .permissionUpdateFailed(let status, let error): listener.didUpdatePermissionWithError(status, error)
        case .sessionEnded: listener.didEndSession()
        }
    }
}
