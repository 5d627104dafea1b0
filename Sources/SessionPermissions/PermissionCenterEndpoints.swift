import Foundation
import SessionCore

/// Where the permission center lives (netID model: read and write are separate hosts).
public struct PermissionCenterEndpoints: Sendable, Equatable {
    /// `GET` endpoint returning the user's permissions.
    public let read: URL
    /// `POST` endpoint updating them.
    public let write: URL

    /// Creates the endpoints; both must be https (http only on loopback).
    public init(read: URL, write: URL) throws {
        guard URLRules.isSecureEndpoint(read), URLRules.isSecureEndpoint(write) else {
            throw SessionError(.invalidConfiguration, process: .configuration,
                               message: "permission-center endpoints must be https (http only on loopback)")
        }
        self.read = read
        self.write = write
    }

    /// netID's production permission center.
    public static let netID = PermissionCenterEndpoints(
        unchecked: URL(constant: "https://einwilligungsspeicher.netid.de/netid-user-status"),
        write: URL(constant: "https://einwilligen.netid.de/netid-permissions")
    )

    /// For the constant above, whose literals are valid https URLs.
    private init(unchecked read: URL, write: URL) {
        self.read = read
        self.write = write
    }

    /// The vendor media types of the permission center's v2 API.
    public enum MediaType {
        /// Accept type of a permission read.
        public static let userStatus = "application/vnd.netid.permission-center.netid-user-status-v2+json"
        /// Content type of a permission write.
        public static let permissions = "application/vnd.netid.permission-center.netid-permissions-v2+json"
        /// Accept type of a permission write.
        public static let subjectStatus = "application/vnd.netid.permission-center.netid-subject-status-v2+json"
    }
}
