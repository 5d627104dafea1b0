import Foundation
import SessionCore
import SessionPermissions

extension LocalProvider {
    /// A user and the claims UserInfo returns for them.
    public struct User: Sendable, Equatable {
        /// The subject identifier (`sub`).
        public var subject: String
        /// `email`.
        public var email: String
        /// `given_name`.
        public var givenName: String
        /// `family_name`.
        public var familyName: String
        /// `birthdate`, ISO 8601.
        public var birthdate: String?
        /// `picture`, the profile image's URL; nil for none.
        public var picture: URL?
        /// The permission-center record the user starts with; nil for none.
        public var permissions: PermissionRecord?

        /// Creates a user.
        public init(subject: String, email: String, givenName: String, familyName: String, birthdate: String? = nil,
                    permissions: PermissionRecord? = nil) {
            self.subject = subject
            self.email = email
            self.givenName = givenName
            self.familyName = familyName
            self.birthdate = birthdate
            self.permissions = permissions
        }

        /// Erika Mustermann, subject `erika`, with a valid ID consent.
        public static let erika = User(subject: "erika", email: "erika@example.com", givenName: "Erika",
                                       familyName: "Mustermann", birthdate: "1964-08-12",
                                       permissions: PermissionRecord(idConsent: .valid, changedAt: "2026-01-01T00:00:00Z"))

        /// Max Mustermann, subject `max`: a second person, for several accounts.
        public static let max = User(subject: "max", email: "max@example.com", givenName: "Max", familyName: "Mustermann",
                                     permissions: PermissionRecord(idConsent: .valid, changedAt: "2026-01-01T00:00:00Z"))
    }
}
