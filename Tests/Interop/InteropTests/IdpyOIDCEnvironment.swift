import Foundation
import SessionCore
import XCTest

/// The idpyoidc provider run-interop.sh started (Tests/Interop/idpyoidc/provider.py): one
/// confidential client (client_secret_basic) whose user signs in without a login page. Every value
/// is required: without the script these tests fail instead of passing silently.
struct IdpyOIDCEnvironment {
    let issuer: URL
    let clientID: String
    let clientSecret: String
    let redirectURI: URL
    /// The one user idpyoidc's NoAuthn signs in, also its `sub`.
    let subject: String

    static func load(file: StaticString = #filePath, line: UInt = #line) throws -> IdpyOIDCEnvironment {
        func value(_ name: String) throws -> String { try InteropVariable.string(name, file: file, line: line) }
        return IdpyOIDCEnvironment(issuer: try InteropVariable.url("INTEROP_IDPY_ISSUER", file: file, line: line), clientID: try value("INTEROP_IDPY_CLIENT_ID"),
                                   clientSecret: try InteropVariable.secret(fromFileIn: "INTEROP_IDPY_CLIENT_SECRET_FILE", file: file, line: line),
                                   redirectURI: try InteropVariable.url("INTEROP_IDPY_REDIRECT_URI", file: file, line: line),
                                   subject: try value("INTEROP_IDPY_SUBJECT"))
    }

    /// `offline_access` (with the `consent` prompt OpenID Connect asks for with it) is what makes
    /// idpyoidc issue a refresh token.
    func configuration(dpop: DPoPMode, pushes: Bool = false) throws -> SessionConfiguration {
        try SessionConfiguration(issuer: issuer, clientID: clientID, redirectURI: redirectURI, scopes: ["profile", "email", "offline_access"],
                                 prompt: "consent", clientAuthentication: .clientSecretBasic(clientSecret), pushesAuthorizationRequests: pushes, dpop: dpop)
    }
}
