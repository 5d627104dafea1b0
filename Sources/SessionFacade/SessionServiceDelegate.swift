import SessionCore
import SessionPermissions

/// A listener of the legacy-style facade. Every method has an empty default, so a listener
/// implements only the callbacks it cares about.
///
/// Listeners are held weakly and called on the service's callback queue, in registration order,
/// one outcome at a time (see the callback contract in the SessionFacade documentation).
public protocol SessionServiceDelegate: AnyObject {
    /// `initialize` finished: `nil` on success, the error otherwise.
    func didFinishInitializationWithError(_ error: SessionError?)
    /// A sign-in or a restored session produced this access token.
    func didFinishAuthentication(_ accessToken: String)
    /// Sign-in, or the restore of a stored session, failed.
    func didFinishAuthenticationWithError(_ error: SessionError)
    /// The user cancelled the authorization, or `cancelAuthorization()` was called.
    func didCancelAuthentication(_ error: SessionError)
    /// `fetchUserInfo` succeeded.
    func didFetchUserInfo(_ userInfo: UserInfo)
    /// `fetchUserInfo` failed.
    func didFetchUserInfoWithError(_ error: SessionError)
    /// `fetchPermissions` succeeded.
    func didFetchPermissions(_ permissions: PermissionReadResponse)
    /// `fetchPermissions` failed, with the permission center's status.
    func didFetchPermissionsWithError(_ status: PermissionCenterStatus, _ error: SessionError)
    /// `updatePermissions` succeeded.
    func didUpdatePermissions(_ subjectIdentifiers: SubjectIdentifiers)
    /// `updatePermissions` failed, with the permission center's status.
    func didUpdatePermissionsWithError(_ status: PermissionCenterStatus, _ error: SessionError)
    /// `endSession` finished: no token is left in memory or in the store.
    func didEndSession()
    /// `endSession` failed (for instance the revocation was refused); local state is kept.
    func didEndSessionWithError(_ error: SessionError)
    /// The session's tokens were refreshed, during whichever operation needed them (C15).
    func didRefreshSession(_ accessToken: String)
    /// A device sign-in has its code: show `DeviceAuthorization.userCode` and
    /// `DeviceAuthorization.verificationURI` (C16). The outcome follows.
    func didReceiveDeviceAuthorization(_ authorization: DeviceAuthorization)
    /// `endSession(endingProviderSessionWith:)` ended the session here, but the provider's
    /// sign-out page failed or was cancelled: its session may still be open (C17).
    func didFailToEndProviderSession(_ error: SessionError)
    /// The session ended without `endSession` (a refused refresh, an expired token without a
    /// refresh token, a store that could not save), during whichever operation met it (C15).
    func didLoseSession(_ error: SessionError)
}

extension SessionServiceDelegate {
    /// Does nothing.
    public func didFinishInitializationWithError(_ error: SessionError?) {}
    /// Does nothing.
    public func didFinishAuthentication(_ accessToken: String) {}
    /// Does nothing.
    public func didFinishAuthenticationWithError(_ error: SessionError) {}
    /// Does nothing.
    public func didCancelAuthentication(_ error: SessionError) {}
    /// Does nothing.
    public func didFetchUserInfo(_ userInfo: UserInfo) {}
    /// Does nothing.
    public func didFetchUserInfoWithError(_ error: SessionError) {}
    /// Does nothing.
    public func didFetchPermissions(_ permissions: PermissionReadResponse) {}
    /// Does nothing.
    public func didFetchPermissionsWithError(_ status: PermissionCenterStatus, _ error: SessionError) {}
    /// Does nothing.
    public func didUpdatePermissions(_ subjectIdentifiers: SubjectIdentifiers) {}
    /// Does nothing.
    public func didUpdatePermissionsWithError(_ status: PermissionCenterStatus, _ error: SessionError) {}
    /// Does nothing.
    public func didEndSession() {}
    /// Does nothing.
    public func didEndSessionWithError(_ error: SessionError) {}
    /// Does nothing.
    public func didRefreshSession(_ accessToken: String) {}
    /// Does nothing.
    public func didReceiveDeviceAuthorization(_ authorization: DeviceAuthorization) {}
    /// Does nothing.
    public func didFailToEndProviderSession(_ error: SessionError) {}
    /// Does nothing.
    public func didLoseSession(_ error: SessionError) {}
}
