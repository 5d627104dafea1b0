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
        let environment = ProcessInfo.processInfo.environment
        func value(_ name: String) throws -> String {
            guard let value = environment[name], !value.isEmpty else {
                XCTFail("\(name) is not set: run the interop tests through Tests/Interop/run-interop.sh", file: file, line: line)
                throw SessionError(.invalidConfiguration, process: .configuration, message: "interop provider missing")
            }
            return value
        }
        guard let issuer = URL(string: try value("INTEROP_ISSUER")) else {
            XCTFail("INTEROP_ISSUER is not a URL", file: file, line: line)
            throw SessionError(.invalidConfiguration, process: .configuration, message: "interop issuer invalid")
        }
        return InteropEnvironment(issuer: issuer, clientID: try value("INTEROP_CLIENT_ID"), username: try value("INTEROP_USERNAME"),
                                  password: try value("INTEROP_PASSWORD"), subject: try value("INTEROP_SUBJECT"),
                                  confidentialClientID: try value("INTEROP_CONFIDENTIAL_CLIENT_ID"), clientSecret: try value("INTEROP_CLIENT_SECRET"))
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
