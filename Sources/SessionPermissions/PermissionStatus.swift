import Foundation
import SessionCore

/// A consent state: `VALID` or `INVALID`.
public enum PermissionStatus: String, Sendable, Equatable, Codable {
    case valid = "VALID"
    case invalid = "INVALID"
}
