import Foundation
import XCTest

/// The providers' secrets reach the tests by files only, never by the environment that every
/// process the tests start (the demo, the providers' helpers) inherits.
final class InteropSecretsTests: XCTestCase {
    func testNoSecretIsInTheTestsEnvironment() throws {
        let django = try InteropEnvironment.load(), idpy = try IdpyOIDCEnvironment.load()
        let secrets = [django.password, django.clientSecret, idpy.clientSecret,
                       try InteropVariable.secret(fromFileIn: "INTEROP_DJANGO_SECRET_FILE", file: #filePath, line: #line)]
        for (name, value) in ProcessInfo.processInfo.environment {
            for (index, secret) in secrets.enumerated() where value.contains(secret) {
                XCTFail("secret \(index) is in the environment variable \(name)")
            }
        }
    }
}
