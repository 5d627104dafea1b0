import Foundation
import SessionCore
import SessionFacade

/// Turns SessionService's callbacks into one netID listener's callbacks, keeping netID's
/// observable sequences: a second `initialize` is silent, transport failures go to
/// `didEncounterNetworkError` only, permission calls without a token report `TOKEN_ERROR`.
///
/// `@unchecked Sendable`: `listener` never changes; it is only called on the callback queue.
final class NetIdListenerAdapter: SessionServiceDelegate, @unchecked Sendable {
    /// Held strongly, as netID holds its listeners.
    let listener: NetIdServiceDelegate

    init(_ listener: NetIdServiceDelegate) {
        self.listener = listener
    }

    /// Reports a transport failure through `didEncounterNetworkError`; true when it did.
    private func networkFailure(_ error: SessionError) -> Bool {
        guard NetIdError.isNetworkFailure(error) else { return false }
        listener.didEncounterNetworkError(NetIdError(error))
        return true
    }

    /// netID reports a permission call without a usable token as `TOKEN_ERROR` and `UnauthorizedClient`.
    private func permissionFailure(_ status: PermissionResponseStatus, _ error: SessionError) -> (PermissionResponseStatus, NetIdError) {
        let noToken: Set<SessionError.Code> = [.notAuthenticated, .reauthenticationRequired, .invalidToken, .sessionEnded]
        if noToken.contains(error.code) || status == .noToken || status == .tokenError {
            return (.tokenError, NetIdError(code: .UnauthorizedClient, process: NetIdError.process(for: error.process), msg: error.message))
        }
        return (status, NetIdError(error))
    }

    func didFinishInitializationWithError(_ error: SessionError?) {
        guard let error else { return listener.didFinishInitializationWithError(nil) }
        // netID ignores a second initialize without a word.
        guard error.code != .alreadyInitialized, !networkFailure(error) else { return }
        listener.didFinishInitializationWithError(NetIdError(error))
    }

    func didFinishAuthentication(_ accessToken: String) { listener.didFinishAuthentication(accessToken) }

    func didFinishAuthenticationWithError(_ error: SessionError) {
        guard !networkFailure(error) else { return }
        listener.didFinishAuthenticationWithError(NetIdError(error))
    }

    func didCancelAuthentication(_ error: SessionError) {
        listener.didCancelAuthentication(NetIdError(code: .AuthorizationCanceledByUser, process: .Authentication, msg: error.message))
    }

    func didFetchUserInfo(_ userInfo: UserInfo) { listener.didFetchUserInfo(userInfo) }

    func didFetchUserInfoWithError(_ error: SessionError) {
        guard !networkFailure(error) else { return }
        listener.didFetchUserInfoWithError(NetIdError(error))
    }

    func didFetchPermissions(_ permissions: SessionCore.PermissionReadResponse) {
        listener.didFetchPermissions(PermissionReadResponse(permissions))
    }

    func didFetchPermissionsWithError(_ status: PermissionResponseStatus, _ error: SessionError) {
        guard !networkFailure(error) else { return }
        let (netIdStatus, netIdError) = permissionFailure(status, error)
        listener.didFetchPermissionsWithError(netIdStatus, netIdError)
    }

    func didUpdatePermissions(_ subjectIdentifiers: SubjectIdentifiers) { listener.didUpdatePermission(subjectIdentifiers) }

    func didUpdatePermissionsWithError(_ status: PermissionResponseStatus, _ error: SessionError) {
        guard !networkFailure(error) else { return }
        let (netIdStatus, netIdError) = permissionFailure(status, error)
        listener.didUpdatePermissionWithError(netIdStatus, netIdError)
    }

    func didEndSession() { listener.didEndSession() }

    /// netID has no error callback for `endSession`; a store that could not be cleared is
    /// reported as a failed authentication state instead of being lost.
    func didEndSessionWithError(_ error: SessionError) {
        guard !networkFailure(error) else { return }
        listener.didFinishAuthenticationWithError(NetIdError(error))
    }
}
