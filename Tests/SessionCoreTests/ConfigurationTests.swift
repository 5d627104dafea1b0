import ClientTestSupport
import Foundation
import SessionCore
import SessionFacade
import XCTest

final class ConfigurationTests: XCTestCase {
    private func configuration(issuer: String = "https://op.example", redirect: String = "com.example.app:/cb",
                               scopes: [String] = [], claims: String? = nil,
                               extra: [String: String] = [:]) throws -> SessionConfiguration {
        try SessionConfiguration(issuer: URL(string: issuer)!, clientID: "client", redirectURI: URL(string: redirect)!,
                                 scopes: scopes, claims: claims, additionalParameters: extra)
    }

    func testAcceptsTheRedirectURIKindsOfRFC8252() throws {
        for redirect in ["com.example.app:/cb", "https://app.example/cb", "http://127.0.0.1:8080/cb", "http://[::1]:9000/cb"] {
            XCTAssertNoThrow(try configuration(redirect: redirect), redirect)
        }
        XCTAssertNoThrow(try configuration(issuer: "http://127.0.0.1:8000/o"))
    }

    func testRefusesInsecureOrMalformedValues() async throws {
        let cases: [() throws -> SessionConfiguration] = [
            { try self.configuration(issuer: "http://op.example") },
            { try self.configuration(issuer: "https://op.example?x=1") },
            { try self.configuration(redirect: "http://app.example/cb") },
            { try self.configuration(redirect: "http://localhost:8080/cb") },
            { try self.configuration(redirect: "https://app.example/cb#frag") },
            { try self.configuration(scopes: ["has space"]) },
            { try self.configuration(claims: "[1]") },
            { try self.configuration(claims: "not json") },
            { try self.configuration(extra: ["state": "fixed"]) },
            { try self.configuration(extra: ["code_challenge_method": "plain"]) },
            { try SessionConfiguration(issuer: URL(string: "https://op.example")!, clientID: "client",
                                       redirectURI: URL(string: "com.example.app:/cb")!, tokenRequestParameters: ["code_verifier": "x"]) },
            { try SessionConfiguration(issuer: URL(string: "https://op.example")!, clientID: "client",
                                       redirectURI: URL(string: "com.example.app:/cb")!, tokenRequestParameters: ["grant_type": "password"]) },
        ]
        for (index, make) in cases.enumerated() {
            let error = await assertSessionError(.invalidConfiguration, process: .configuration) { try make() }
            XCTAssertNotNil(error, "case \(index)")
        }
    }

    func testDefaultScopesStartWithOpenIDWithoutRepeats() throws {
        XCTAssertEqual(try configuration(scopes: ["profile", "openid"]).defaultScopes, ["openid", "profile"])
        XCTAssertEqual(try configuration(scopes: []).defaultScopes, ["openid"])
    }

    /// netID's flows, which the facade keeps, are scopes before the configured ones.
    func testFlowScopesComeFirstWithoutRepeats() throws {
        let config = try configuration(scopes: ["profile", "openid"])
        XCTAssertEqual(AuthFlow.login.scopes(with: config), ["openid", "profile"])
        XCTAssertEqual(AuthFlow.permission.scopes(with: config), ["permission_management", "profile", "openid"])
        XCTAssertEqual(AuthFlow.loginPermission.scopes(with: config), ["openid", "permission_management", "profile"])
    }
}
