import Foundation
import SessionPermissions

/// netID's listener protocol, with netID's method names. Every method has an empty default, so
/// a listener written for netID (which implements all twelve) and a listener implementing a few
/// both conform. Callbacks run on the service's callback queue (the main queue by default).
public protocol NetIdServiceDelegate: AnyObject {
    /// `initialize` finished: nil on success.
    func didFinishInitializationWithError(_ error: NetIdError?)
    /// A sign-in, or the restore of a stored session at `initialize`, produced this access token;
    /// `authorize` also announces a session that already exists before it signs in again.
    func didFinishAuthentication(_ accessToken: String)
    /// A sign-in, or the restore of a stored session, failed: `NoAuth` with the cause in `msg`.
    func didFinishAuthenticationWithError(_ error: NetIdError?)
    /// UserInfo arrived.
    func didFetchUserInfo(_ userInfo: UserInfo)
    /// UserInfo failed.
    func didFetchUserInfoWithError(_ error: NetIdError)
    /// The session ended.
    func didEndSession()
    /// No connection to the provider could be opened. Nothing else is reported for that
    /// operation; a timeout or a broken connection goes to the operation's own error callback.
    func didEncounterNetworkError(_ error: NetIdError)
    /// The user closed the authorization page, or the app called `didTapDismiss()`.
    func didCancelAuthentication(_ error: NetIdError)
    /// The permissions arrived.
    func didFetchPermissions(_ permissions: PermissionReadResponse)
    /// Reading permissions failed, with the permission center's status.
    func didFetchPermissionsWithError(_ permissionResponseStatus: PermissionResponseStatus, _ error: NetIdError)
    /// The update was accepted.
    func didUpdatePermission(_ subjectIdentifiers: SubjectIdentifiers)
    /// The update failed, with the permission center's status.
    func didUpdatePermissionWithError(_ permissionResponseStatus: PermissionResponseStatus, _ error: NetIdError)
}

extension NetIdServiceDelegate {
    /// Does nothing.
    public func didFinishInitializationWithError(_ error: NetIdError?) {}
    /// Does nothing.
    public func didFinishAuthentication(_ accessToken: String) {}
    /// Does nothing.
    public func didFinishAuthenticationWithError(_ error: NetIdError?) {}
    /// Does nothing.
    public func didFetchUserInfo(_ userInfo: UserInfo) {}
    /// Does nothing.
    public func didFetchUserInfoWithError(_ error: NetIdError) {}
    /// Does nothing.
    public func didEndSession() {}
    /// Does nothing.
    public func didEncounterNetworkError(_ error: NetIdError) {}
    /// Does nothing.
    public func didCancelAuthentication(_ error: NetIdError) {}
    /// Does nothing.
    public func didFetchPermissions(_ permissions: PermissionReadResponse) {}
    /// Does nothing.
    public func didFetchPermissionsWithError(_ permissionResponseStatus: PermissionResponseStatus, _ error: NetIdError) {}
    /// Does nothing.
    public func didUpdatePermission(_ subjectIdentifiers: SubjectIdentifiers) {}
    /// Does nothing.
    public func didUpdatePermissionWithError(_ permissionResponseStatus: PermissionResponseStatus, _ error: NetIdError) {}
}
