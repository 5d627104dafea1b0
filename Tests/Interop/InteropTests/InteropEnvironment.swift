import Foundation
import SessionCore
import XCTest

/// The provider run-interop.sh started. Every value is required: without the script these tests
/// fail instead of passing silently.
struct InteropEnvironment {
    let issuer: URL
    let clientID: String
    let username: String
    let password: String
    /// The user's database id, which django-oauth-toolkit uses as `sub`.
    let subject: String
    /// A confidential client and its secret.
    let confidentialClientID: String
    let clientSecret: String

    static func load(file: StaticString = #filePath, line: UInt = #line) throws -> InteropEnvironment {
        func value(_ name: String) throws -> String { try InteropVariable.string(name, file: file, line: line) }
        func secret(_ name: String) throws -> String { try InteropVariable.secret(fromFileIn: name, file: file, line: line) }
        return InteropEnvironment(issuer: try InteropVariable.url("INTEROP_ISSUER", file: file, line: line), clientID: try value("INTEROP_CLIENT_ID"),
                                  username: try value("INTEROP_USERNAME"), password: try secret("INTEROP_PASSWORD_FILE"), subject: try value("INTEROP_SUBJECT"),
                                  confidentialClientID: try value("INTEROP_CONFIDENTIAL_CLIENT_ID"), clientSecret: try secret("INTEROP_CLIENT_SECRET_FILE"))
    }

    func configuration(redirectURI: String = "com.example.interop:/callback") throws -> SessionConfiguration {
        try SessionConfiguration(issuer: issuer, clientID: clientID, redirectURI: URL(string: redirectURI)!, scopes: ["profile", "email"])
    }

    /// The confidential client's configuration, authenticating with `method` (given the secret).
    func confidentialConfiguration(_ method: (String) -> ClientAuthentication) throws -> SessionConfiguration {
        try SessionConfiguration(issuer: issuer, clientID: confidentialClientID, redirectURI: URL(string: "com.example.interop:/callback")!,
                                 scopes: ["profile", "email"], clientAuthentication: method(clientSecret))
    }
}
