import SessionCore
import SessionPermissions

/// The permission center's reads and writes, on the endpoints `initialize` was given.
extension SessionService {
    /// Reads the permissions, asking for `identifiers`.
    /// Outcome: `didFetchPermissions` or `didFetchPermissionsWithError(status, error)`.
    public func fetchPermissions(identifiers: Set<IdentifierOption> = [],
                                 completion: (@Sendable (Result<PermissionReadResponse, SessionError>) -> Void)? = nil) {
        perform(.permissionRead, completion) { [self] in
            await withPermissionCenter(.permissionRead) { try await $0.fetchPermissions(identifiers: identifiers) }
        }
    }

    /// ``fetchPermissions(identifiers:completion:)``, awaited.
    /// - Throws: the request's `SessionError`, with the center's status in `permissionStatus`.
    public func fetchPermissions(identifiers: Set<IdentifierOption> = []) async throws -> PermissionReadResponse {
        try await awaiting { fetchPermissions(identifiers: identifiers, completion: $0) }
    }

    /// Writes `update` to the permission center.
    /// Outcome: `didUpdatePermissions` or `didUpdatePermissionsWithError(status, error)`.
    public func updatePermissions(_ update: PermissionUpdate, identifiers: Set<IdentifierOption> = [],
                                  completion: (@Sendable (Result<SubjectIdentifiers, SessionError>) -> Void)? = nil) {
        perform(.permissionWrite, completion) { [self] in
            await withPermissionCenter(.permissionWrite) { try await $0.updatePermissions(update, identifiers: identifiers) }
        }
    }

    /// ``updatePermissions(_:identifiers:completion:)``, awaited.
    /// - Throws: the request's `SessionError`, with the center's status in `permissionStatus`.
    public func updatePermissions(_ update: PermissionUpdate, identifiers: Set<IdentifierOption> = []) async throws -> SubjectIdentifiers {
        try await awaiting { updatePermissions(update, identifiers: identifiers, completion: $0) }
    }
}

extension Outcome where Value == PermissionReadResponse {
    /// `didFetchPermissions` or `didFetchPermissionsWithError(status, error)`.
    static var permissionRead: Outcome {
        Outcome(.permissionRead, success: { $0.didFetchPermissions($1) },
                failure: { $0.didFetchPermissionsWithError($1.permissionStatus ?? .unknown, $1) })
    }
}

extension Outcome where Value == SubjectIdentifiers {
    /// `didUpdatePermissions` or `didUpdatePermissionsWithError(status, error)`.
    static var permissionWrite: Outcome {
        Outcome(.permissionWrite, success: { $0.didUpdatePermissions($1) },
                failure: { $0.didUpdatePermissionsWithError($1.permissionStatus ?? .unknown, $1) })
    }
}
