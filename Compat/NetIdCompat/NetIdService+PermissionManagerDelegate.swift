/// netID's service is its permission manager's delegate, and these methods are public: an app
/// calling one makes the same callback on every listener. Here the callback is made on the
/// callback queue, in call order.
extension NetIdService: PermissionManagerDelegate {
    /// Makes `didFetchPermissions(permissions)` on every listener.
    public func didFetchPermissions(_ permissions: PermissionReadResponse) {
        broadcastInOrder(.permissions(permissions))
    }

    /// Makes `didFetchPermissionsWithError(status, error)` on every listener.
    public func didFetchPermissionsWithError(_ permissionResponseStatus: PermissionResponseStatus, _ error: NetIdError) {
        broadcastInOrder(.permissionsFailed(permissionResponseStatus, error))
    }

    /// Makes `didUpdatePermission(subjectIdentifiers)` on every listener.
    public func didUpdatePermission(_ subjectIdentifiers: SubjectIdentifiers) {
        broadcastInOrder(.permissionUpdated(subjectIdentifiers))
    }

    /// Makes `didUpdatePermissionWithError(status, error)` on every listener.
    public func didUpdatePermissionWithError(_ permissionResponseStatus: PermissionResponseStatus, _ error: NetIdError) {
        broadcastInOrder(.permissionUpdateFailed(permissionResponseStatus, error))
    }

    private func broadcastInOrder(_ callback: NetIdCallback) {
        service.enqueueCallback { [translator] in translator.broadcast(callback) }
    }
}
