import Foundation
import SessionCore

/// How the permission center's answers are read: the body of a success, or the
/// `status_code` of a refusal. Every failure is a ``SessionError``.
enum PermissionCenterReply {
    /// The permissions a read returned.
    /// - Throws: `permissionRequestFailed` for a status other than 200; `invalidResponse`
    ///   (status `JSON_PARSE_ERROR`) for a body that is not a permission status.
    static func read(_ response: HTTPResponse) throws -> PermissionReadResponse {
        guard response.status == 200 else { throw refusal(response, process: .permissionRead) }
        do {
            return try JSONDecoder().decode(PermissionReadResponse.self, from: response.body)
        } catch {
            throw SessionError.permission(.invalidResponse, .permissionRead, "permission read: the body is not a permission status",
                                          httpStatus: response.status, status: .jsonParseError)
        }
    }

    /// The subject identifiers a write returned.
    /// - Throws: as ``read(_:)``, for statuses other than 200 and 201 and bodies that are not a
    ///   subject status.
    static func write(_ response: HTTPResponse) throws -> SubjectIdentifiers {
        guard (200...201).contains(response.status) else { throw refusal(response, process: .permissionWrite) }
        do {
            return try JSONDecoder().decode(PermissionWriteResponse.self, from: response.body).subjectIdentifiers ?? SubjectIdentifiers()
        } catch {
            throw SessionError.permission(.invalidResponse, .permissionWrite, "permission write: the body is not a subject status",
                                          httpStatus: response.status, status: .jsonParseError)
        }
    }

    /// A refusal: the body's `status_code` when it has one.
    static func refusal(_ response: HTTPResponse, process: SessionError.Process) -> SessionError {
        let status = JSONValue.parse(response.body)?.objectValue?["status_code"]?.stringValue
            .map { PermissionCenterStatus(rawValue: $0) ?? .unknown }
        return SessionError.permission(.permissionRequestFailed, process,
                                       "\(process == .permissionRead ? "permission read" : "permission write"): the permission center refused the request",
                                       httpStatus: response.status, status: status ?? .unknown)
    }
}
