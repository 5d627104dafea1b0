import Foundation
import SessionCore

extension SessionTokens {
    /// The bearer token the permission center accepts, by netID's rule: the
    /// `permission_management.access_token` claim of the ID token, or the access token when the
    /// session has no ID token (a sign-in with the permission flow alone).
    ///
    /// The ID token was validated when it was received; the claim is read from
    /// ``idTokenClaims``.
    /// - Throws: `insufficientScope` with permission status `TOKEN_ERROR` when the ID token has no
    ///   such claim (the session was not granted `permission_management`, or the token cannot be
    ///   read).
    public var permissionToken: String {
        get throws {
            guard idToken != nil else { return accessToken }
            let claim = idTokenClaims["permission_management"]?.objectValue?["access_token"]?.stringValue
            guard let claim, !claim.isEmpty else {
                throw SessionError.permission(.insufficientScope, .permissionRead,
                                              "the ID token carries no permission_management access token; sign in with a permission flow",
                                              status: .tokenError)
            }
            return claim
        }
    }
}
