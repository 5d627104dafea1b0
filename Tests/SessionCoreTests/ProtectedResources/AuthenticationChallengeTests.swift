import ClientTestSupport
import Foundation
import SessionCore
import XCTest

/// `WWW-Authenticate` as RFC 9110 §11.6.1 writes it, and what a protected resource's challenge
/// asks for (RFC 6750, RFC 9470, RFC 9728).
final class AuthenticationChallengeTests: XCTestCase {
    func testReadsSeveralChallengesWithQuotedAndTokenValues() throws {
        let challenges = try AuthenticationChallenge.parse(
            #"Basic realm="a \"quoted\" realm", Bearer error=insufficient_scope, scope="files:read files:write",DPoP algs="ES256 PS256""#)
        XCTAssertEqual(challenges, [
            AuthenticationChallenge(scheme: "Basic", parameters: ["realm": #"a "quoted" realm"#]),
            AuthenticationChallenge(scheme: "Bearer", parameters: ["error": "insufficient_scope", "scope": "files:read files:write"]),
            AuthenticationChallenge(scheme: "DPoP", parameters: ["algs": "ES256 PS256"]),
        ])
    }

    func testReadsATokenSixtyEightAndABareScheme() throws {
        XCTAssertEqual(try AuthenticationChallenge.parse("Negotiate a87421000492aa874209af8bc028==, Bearer"), [
            AuthenticationChallenge(scheme: "Negotiate", token68: "a87421000492aa874209af8bc028=="),
            AuthenticationChallenge(scheme: "Bearer"),
        ])
    }

    func testParameterNamesAreCaseInsensitiveAndSpacesAroundEqualsAreTaken() throws {
        let challenge = try XCTUnwrap(AuthenticationChallenge.parse(#"bearer Error = "invalid_token" , Realm=api"#).first)
        XCTAssertTrue(challenge.isScheme("Bearer"))
        XCTAssertEqual(challenge.parameters, ["error": "invalid_token", "realm": "api"])
    }

    func testRefusesWhatIsNotAListOfChallenges() async {
        for header in [
            #"Bearer error="unclosed"#,
            #"Bearer error="a"b"#,
            "Bearer error=, scope=x",
            #"Bearer error="one", error="two""#,
            "Bearer realm=\"line\u{1}break\"",
            #"Bearer error="bad \escape"#,
            "=x",
            "Bearer scope realm",
            String(repeating: "a", count: AuthenticationChallenge.maximumHeaderLength + 1),
            Array(repeating: "Bearer", count: 40).joined(separator: ", "),
        ] {
            await assertSessionError(.invalidResponse, process: .configuration) { try AuthenticationChallenge.parse(header) }
        }
    }

    func testAResourceChallengeSaysWhatTheResourceAsksFor() throws {
        let response = HTTPResponse(status: 403, headers: ["www-authenticate": """
            Basic realm="x", Bearer error="insufficient_user_authentication", error_description="A stronger sign-in is needed", \
            scope="files:read files:read admin", acr_values="urn:mace:incommon:iap:silver phr", max_age=300, \
            resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
            """])
        let challenges = try ResourceChallenge.challenges(in: response)
        XCTAssertEqual(challenges.count, 1, "only Bearer and DPoP challenges are a resource's")
        let challenge = try XCTUnwrap(challenges.first)
        XCTAssertEqual(challenge.error, "insufficient_user_authentication")
        XCTAssertEqual(challenge.errorDescription, "A stronger sign-in is needed")
        XCTAssertEqual(challenge.scope, ["files:read", "admin"])
        XCTAssertEqual(challenge.acrValues, ["urn:mace:incommon:iap:silver", "phr"])
        XCTAssertEqual(challenge.maxAge, 300)
        XCTAssertEqual(challenge.resourceMetadata?.absoluteString, "https://mcp.example.com/.well-known/oauth-protected-resource/mcp")
        XCTAssertEqual(try ResourceChallenge.challenges(in: HTTPResponse(status: 401)), [])
    }

    func testRefusesAResourceMetadataURLThatIsHugeInsecureOrNotAURL() async {
        let huge = "https://mcp.example.com/" + String(repeating: "a", count: ResourceChallenge.maximumURLLength)
        for value in [huge, "http://mcp.example.com/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource",
                      "https://user@mcp.example.com/", "https://mcp.example.com/#fragment", "not a url", "javascript:alert(1)"] {
            let response = HTTPResponse(status: 401, headers: ["WWW-Authenticate": #"Bearer resource_metadata="\#(value)""#])
            await assertSessionError(.invalidResponse, process: .configuration) { try ResourceChallenge.challenges(in: response) }
        }
        let badAge = HTTPResponse(status: 401, headers: ["WWW-Authenticate": "Bearer error=insufficient_user_authentication, max_age=-5"])
        await assertSessionError(.invalidResponse) { try ResourceChallenge.challenges(in: badAge) }
    }
}
