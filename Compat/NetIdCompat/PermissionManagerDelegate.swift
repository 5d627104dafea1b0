/// netID's public protocol for the receiver of permission-center results; ``NetIdService``
/// conforms, as netID's does.
public protocol PermissionManagerDelegate: AnyObject {
    /// The permissions were read.
    func didFetchPermissions(_ permissions: PermissionReadResponse)
    /// Reading the permissions failed, with the permission center's status.
    func didFetchPermissionsWithError(_ permissionResponseStatus: PermissionResponseStatus, _ error: NetIdError)
    /// The permissions were written; these are the identifiers asked for.
    func didUpdatePermission(_ subjectIdentifiers: SubjectIdentifiers)
    /// Writing the permissions failed, with the permission center's status.
    func didUpdatePermissionWithError(_ permissionResponseStatus: PermissionResponseStatus, _ error: NetIdError)
}
