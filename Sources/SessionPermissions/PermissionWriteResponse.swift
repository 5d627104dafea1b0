import Foundation
import SessionCore

/// The answer to a permission write.
struct PermissionWriteResponse: Decodable {
    var statusCode: PermissionCenterStatus?
    var subjectIdentifiers: SubjectIdentifiers?

    enum CodingKeys: String, CodingKey { case statusCode = "status_code", subjectIdentifiers = "subject_identifiers" }
}
