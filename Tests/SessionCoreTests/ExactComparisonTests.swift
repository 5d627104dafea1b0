import ClientTestSupport
import Foundation
@testable import SessionCore
import SessionTesting
import XCTest

/// Protocol strings compare exactly (`Exact`): Swift's `==` on `String` would take U+212A
/// KELVIN SIGN for `K`, or a decomposed `é` for the precomposed one. One test per comparison site.
final class ExactComparisonTests: XCTestCase {
    /// Pairs that `==` on `String` calls equal and the protocols do not.
    private static let lookalikes: [(expected: String, received: String)] = [
        ("K", "\u{212A}"),
        ("\u{E9}", "e\u{301}"),
    ]

    func testSwiftStringEqualityIsTheTrapAndExactIsNot() {
        for (expected, received) in Self.lookalikes {
            XCTAssertTrue(expected == received, "the premise: String == is canonical equivalence")
            XCTAssertFalse(Exact.equal(expected, received))
            XCTAssertFalse(Exact.contains([received], expected))
        }
        XCTAssertTrue(Exact.equal("K", "K"))
        XCTAssertFalse(Exact.equal(nil as String?, nil as String?), "nothing equals a missing value")
    }

    // MARK: ID token claims

    private static let issuer = "https://op-K.example"
    private static let client = "client-\u{E9}"

    private func token(_ claims: [String: Any]) throws -> IDToken {
        let now = Date().timeIntervalSince1970
        var all: [String: Any] = ["iss": Self.issuer, "aud": Self.client, "sub": "subject-K", "nonce": "nonce-K", "exp": now + 600, "iat": now]
        all.merge(claims) { $1 }
        let payload = Base64URL.encode(try JSONSerialization.data(withJSONObject: all))
        return try IDToken("\(Base64URL.encode(Data(#"{"alg":"ES256"}"#.utf8))).\(payload).c2ln")
    }

    private func validate(_ claims: [String: Any]) throws {
        try IDTokenValidator(issuer: Self.issuer, clientID: Self.client, clock: SystemClock(), allowedSkew: 120)
            .validateClaims(try token(claims), expectedNonce: "nonce-K", expectedSubject: "subject-K")
    }

    private func assertRefused(_ code: SessionError.Code, _ claims: [String: Any], line: UInt = #line) {
        XCTAssertThrowsError(try validate(claims), line: line) { XCTAssertEqual(($0 as? SessionError)?.code, code, line: line) }
    }

    func testTheUnchangedClaimsAreAccepted() throws {
        try validate([:])
    }

    func testIssuer() {
        assertRefused(.idTokenIssuerMismatch, ["iss": "https://op-\u{212A}.example"])
    }

    func testAudience() {
        assertRefused(.idTokenAudienceMismatch, ["aud": "client-e\u{301}"])
        assertRefused(.idTokenAudienceMismatch, ["aud": ["client-e\u{301}"]])
    }

    func testAuthorizedParty() {
        assertRefused(.idTokenAuthorizedPartyMismatch, ["aud": [Self.client, "other"], "azp": "client-e\u{301}"])
    }

    func testSubjectAfterRefresh() {
        assertRefused(.idTokenSubjectMismatch, ["sub": "subject-\u{212A}"])
    }

    func testNonce() {
        assertRefused(.idTokenNonceMismatch, ["nonce": "nonce-\u{212A}"])
    }

    // MARK: Keys, discovery, the redirect, the store, UserInfo

    func testKeyID() {
        let keys = JSONWebKeySet(keys: [JSONWebKey(kty: "EC", kid: "key-\u{212A}", crv: "P-256", x: "x", y: "y")])
        XCTAssertNil(keys.key(kid: "key-K", algorithm: .es256))
        XCTAssertNotNil(keys.key(kid: "key-\u{212A}", algorithm: .es256))
    }

    func testKeyUseAndAlgorithm() {
        XCTAssertFalse(JSONWebKey(kty: "EC", alg: "ES256", use: "sig\u{301}", crv: "P-256").fits(.es256))
        XCTAssertTrue(JSONWebKey(kty: "EC", alg: "ES256", use: "sig", crv: "P-256").fits(.es256))
    }

    func testDiscoveryIssuer() throws {
        let document = try JSONSerialization.data(withJSONObject: [
            "issuer": "https://op-\u{212A}.example", "authorization_endpoint": "https://op.example/a", "token_endpoint": "https://op.example/t",
            "jwks_uri": "https://op.example/j", "response_types_supported": ["code"],
        ])
        XCTAssertThrowsError(try ProviderMetadata(data: document, expectedIssuer: Self.issuer)) {
            XCTAssertEqual(($0 as? SessionError)?.code, .issuerMismatch)
        }
    }

    func testStateAndIssuerOfTheAuthorizationResponse() {
        let callback = { (state: String, iss: String) in
            URL(string: "com.example.app:/cb?code=c&state=\(state.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)&iss=\(iss.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")!
        }
        XCTAssertNoThrow(try AuthorizationResponse.code(in: callback("state-K", Self.issuer), state: "state-K", issuer: (Self.issuer, true)))
        XCTAssertThrowsError(try AuthorizationResponse.code(in: callback("state-\u{212A}", Self.issuer), state: "state-K", issuer: nil)) {
            XCTAssertEqual(($0 as? SessionError)?.code, .stateMismatch)
        }
        XCTAssertThrowsError(try AuthorizationResponse.code(in: callback("state-K", "https://op-\u{212A}.example"), state: "state-K",
                                                            issuer: (Self.issuer, true))) {
            XCTAssertEqual(($0 as? SessionError)?.code, .authorizationIssuerMismatch)
        }
    }

    func testRedirectURIPath() throws {
        let redirect = try XCTUnwrap(URL(string: "com.example.app:/caf%C3%A9"))
        XCTAssertTrue(AuthorizationRequest.isResponse(try XCTUnwrap(URL(string: "com.example.app:/caf%C3%A9?code=c")), to: redirect))
        XCTAssertFalse(AuthorizationRequest.isResponse(try XCTUnwrap(URL(string: "com.example.app:/cafe%CC%81?code=c")), to: redirect))
        XCTAssertTrue(AuthorizationRequest.isResponse(try XCTUnwrap(URL(string: "COM.EXAMPLE.APP:/caf%C3%A9")), to: redirect),
                      "the scheme is case-insensitive")
    }

    func testStoredSessionEnvelope() async throws {
        let stored = try SessionConfiguration(issuer: XCTUnwrap(URL(string: "https://op.example")), clientID: "client-\u{212A}",
                                              redirectURI: XCTUnwrap(URL(string: "com.example.app:/cb")))
        let reading = try SessionConfiguration(issuer: XCTUnwrap(URL(string: "https://op.example")), clientID: "client-K",
                                               redirectURI: XCTUnwrap(URL(string: "com.example.app:/cb")))
        let tokens = SessionTokens(accessToken: "a", refreshToken: "r", idToken: nil, expiresAt: Date(), scopes: [], subject: nil)
        let data = try StoredSessionCodec(configuration: stored, location: "test").encode(tokens)
        XCTAssertThrowsError(try StoredSessionCodec(configuration: reading, location: "test").decode(data)) {
            XCTAssertEqual(($0 as? SessionError)?.code, .storageCorrupt)
        }
    }

    /// A UserInfo `sub` that only Unicode case folding (K and the Kelvin sign) would equate with
    /// the ID token's is another subject.
    func testUserInfoSubject() async throws {
        let harness = try makeLocalHarness { options in
            options.users = [LocalProvider.User(subject: "user-K", email: "k@example.com", givenName: "K", familyName: "K")]
        }
        _ = try await harness.signIn(.login)
        harness.provider.inject(.status(200, body: #"{"sub":"user-\#u{212A}"}"#), at: .userInfo)
        await assertSessionError(.userInfoSubjectMismatch) { try await harness.client.userInfo() }
    }
}
