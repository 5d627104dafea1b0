import SessionCore

extension SessionError.Process {
    /// Reading permissions from the permission center.
    public static let permissionRead = SessionError.Process(rawValue: "permissionRead")
    /// Writing permissions to the permission center.
    public static let permissionWrite = SessionError.Process(rawValue: "permissionWrite")
}

extension SessionError.Code {
    /// The permission center refused; see ``SessionCore/SessionError/permissionStatus``.
    public static let permissionRequestFailed = SessionError.Code(rawValue: "permissionRequestFailed")
}

extension SessionError {
    /// The permission center's `status_code`, for permission errors: what the refusal's body
    /// named (``PermissionCenterStatus/unknown`` for a value this version does not know or none),
    /// `TOKEN_ERROR` when the session holds no permission token, `JSON_PARSE_ERROR` for an
    /// answer that cannot be read. Nil for other errors.
    public var permissionStatus: PermissionCenterStatus? {
        resourceStatus.map { PermissionCenterStatus(rawValue: $0) ?? .unknown }
    }

    /// An error of a permission `process` carrying the center's `status`.
    static func permission(_ code: Code, _ process: Process, _ message: String, httpStatus: Int? = nil,
                           status: PermissionCenterStatus) -> SessionError {
        SessionError(code, process: process, message: message, httpStatus: httpStatus, resourceStatus: status.rawValue)
    }
}
