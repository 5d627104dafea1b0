import ClientTestSupport
import Foundation
import SessionCore
import SessionTesting
import XCTest

/// OIDC Core §3.1.3.7: every way an ID token can be wrong ends the sign-in with its own code.
final class IDTokenValidationTests: XCTestCase {
    private func signIn(_ provider: FakeProvider) async throws -> SessionTokens {
        try await makeClient(provider).signIn(agent: provider)
    }

    private func assertRejected(_ code: SessionError.Code, file: StaticString = #filePath, line: UInt = #line,
                                _ change: @escaping (inout FakeProvider.Settings) -> Void) async throws {
        let provider = try FakeProvider()
        provider.edit(change)
        let store = RecordingStore()
        let client = try makeClient(provider, store: store)
        await assertSessionError(code, process: .authentication, file: file, line: line) { try await client.signIn(agent: provider) }
        XCTAssertNil(store.contents, "a rejected token must not be stored", file: file, line: line)
        let tokens = await client.tokens
        XCTAssertNil(tokens, file: file, line: line)
    }

    func testAValidTokenIsAccepted() async throws {
        let tokens = try await signIn(try FakeProvider())
        XCTAssertEqual(tokens.subject, FakeProvider.subject)
    }

    /// A refresh whose ID token names another subject (a token only a fake provider would mint)
    /// ends the session rather than switch users.
    func testARefreshedIDTokenForAnotherSubjectEndsTheSession() async throws {
        let provider = try FakeProvider()
        let store = RecordingStore()
        let client = try makeClient(provider, store: store)
        _ = try await client.signIn(agent: provider)
        provider.edit { $0.editIDTokenClaims = { $0["sub"] = "someone-else" } }
        let error = await assertSessionError(.reauthenticationRequired) { try await client.refresh() }
        XCTAssertTrue(error?.message.contains("idTokenSubjectMismatch") == true)
        XCTAssertNil(store.contents)
    }

    func testES256TokensAreVerifiedToo() async throws {
        let tokens = try await signIn(try FakeProvider(algorithm: .es256))
        XCTAssertEqual(tokens.subject, FakeProvider.subject)
    }

    func testWrongIssuer() async throws {
        try await assertRejected(.idTokenIssuerMismatch) { $0.editIDTokenClaims = { $0["iss"] = "https://evil.example" } }
    }

    func testWrongAudience() async throws {
        try await assertRejected(.idTokenAudienceMismatch) { $0.editIDTokenClaims = { $0["aud"] = "someone-else" } }
        try await assertRejected(.idTokenAudienceMismatch) { $0.editIDTokenClaims = { $0["aud"] = nil } }
    }

    func testAuthorizedParty() async throws {
        try await assertRejected(.idTokenAuthorizedPartyMismatch) { $0.editIDTokenClaims = { $0["azp"] = "someone-else" } }
        try await assertRejected(.idTokenAuthorizedPartyMismatch) { $0.editIDTokenClaims = { $0["aud"] = [FakeProvider.clientID, "other"] } }
        let provider = try FakeProvider()
        provider.edit { $0.editIDTokenClaims = { $0["aud"] = [FakeProvider.clientID, "other"]; $0["azp"] = FakeProvider.clientID } }
        _ = try await signIn(provider)
    }

    func testExpired() async throws {
        try await assertRejected(.idTokenExpired) { $0.editIDTokenClaims = { $0["exp"] = ($0["iat"] as! Double) - 121 } }
    }

    func testExpiryWithinTheAllowedSkewIsAccepted() async throws {
        let provider = try FakeProvider()
        provider.edit { $0.editIDTokenClaims = { $0["exp"] = ($0["iat"] as! Double) - 60 } }
        _ = try await signIn(provider)
    }

    func testIssuedInTheFuture() async throws {
        try await assertRejected(.idTokenIssuedInFuture) { $0.editIDTokenClaims = { $0["iat"] = ($0["iat"] as! Double) + 600 } }
    }

    func testWrongOrMissingNonce() async throws {
        try await assertRejected(.idTokenNonceMismatch) { $0.editIDTokenClaims = { $0["nonce"] = "replayed" } }
        try await assertRejected(.idTokenNonceMismatch) { $0.editIDTokenClaims = { $0["nonce"] = nil } }
    }

    func testAlgorithmNoneAndHMACAreRefused() async throws {
        try await assertRejected(.idTokenUnsupportedAlgorithm) { $0.idTokenHeader = ["alg": "none"] }
        try await assertRejected(.idTokenUnsupportedAlgorithm) { $0.idTokenHeader = ["alg": "HS256"] }
    }

    func testAnUnsignedTokenIsRefused() async throws {
        let provider = try FakeProvider()
        provider.edit { settings in
            settings.handlers["/token"] = { request in
                func unpadded(_ json: String) -> String { Data(json.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "") }
                let header = unpadded(#"{"alg":"none"}"#)
                let payload = unpadded(#"{"iss":"https://op.example","sub":"user-1","aud":"client-1","exp":9999999999,"iat":0}"#)
                return FakeProvider.json(["access_token": "a", "token_type": "Bearer", "expires_in": 60,
                                          "id_token": "\(header).\(payload)."])
            }
        }
        await assertSessionError(.idTokenUnsupportedAlgorithm) { try await self.signIn(provider) }
    }

    func testABadSignatureIsRefused() async throws {
        let provider = try FakeProvider()
        let forger = try SigningKey(algorithm: .rs256, keyID: "key-1")
        provider.edit { settings in
            settings.handlers["/token"] = { _ in
                let now = Date().timeIntervalSince1970
                let token = try forger.sign(claims: ["iss": FakeProvider.issuer.absoluteString, "sub": "user-1", "aud": FakeProvider.clientID,
                                                     "exp": now + 3600, "iat": now])
                return FakeProvider.json(["access_token": "a", "token_type": "Bearer", "expires_in": 60, "id_token": token])
            }
        }
        await assertSessionError(.idTokenSignatureInvalid) { try await self.signIn(provider) }
    }

    func testAnUnknownKeyIsRefusedWithoutFetchingTheJustFetchedKeySetAgain() async throws {
        let provider = try FakeProvider()
        provider.edit { $0.idTokenHeader = ["kid": "rotated-away"] }
        let client = try makeClient(provider)
        await assertSessionError(.idTokenUnknownKey) { try await client.signIn(agent: provider) }
        XCTAssertEqual(provider.requests(to: "/jwks").count, 1, "the set was fetched for this very token")
        await assertSessionError(.idTokenUnknownKey) { try await client.signIn(agent: provider) }
        XCTAssertEqual(provider.requests(to: "/jwks").count, 1, "no reload within 30 s of the last fetch")
        provider.clock.advance(by: 31)
        await assertSessionError(.idTokenUnknownKey) { try await client.signIn(agent: provider) }
        XCTAssertEqual(provider.requests(to: "/jwks").count, 2, "one reload once 30 s have passed")
    }

    func testAKeyRotatedAtTheProviderIsPickedUpByReloadingTheJWKS() async throws {
        let provider = try FakeProvider()
        let client = try makeClient(provider)
        _ = try await client.signIn(agent: provider)
        let rotated = try SigningKey(algorithm: .es256, keyID: "key-2")
        // The provider now publishes and signs with a new key the client has not seen, a minute later.
        let clock = provider.clock
        clock.advance(by: 60)
        provider.edit { settings in
            settings.handlers["/jwks"] = { _ in HTTPResponse(status: 200, body: SigningKey.jwksDocument([rotated.publicJWK])) }
            settings.handlers["/token"] = { [unowned provider] _ in
                let now = clock.now().timeIntervalSince1970
                let token = try rotated.sign(claims: ["iss": FakeProvider.issuer.absoluteString, "sub": FakeProvider.subject,
                                                      "aud": FakeProvider.clientID, "exp": now + 3600, "iat": now,
                                                      "nonce": provider.lastAuthorization["nonce"] ?? ""])
                return FakeProvider.json(["access_token": "a2", "token_type": "Bearer", "expires_in": 600, "id_token": token])
            }
        }
        let tokens = try await client.signIn(agent: provider)
        XCTAssertEqual(tokens.subject, FakeProvider.subject)
    }

    func testMalformedTokensAreRefused() async throws {
        for raw in ["not-a-jwt", "a.b", "!!.e30.sig", "e30.!!.sig", "W10.e30.c2ln", "e30.e30.c2ln.c2ln", "..", "e30.e30.c2l="] {
            let provider = try FakeProvider()
            provider.edit { settings in
                settings.handlers["/token"] = { _ in
                    FakeProvider.json(["access_token": "a", "token_type": "Bearer", "expires_in": 60, "id_token": raw])
                }
            }
            await assertSessionError(.idTokenMalformed) { try await self.signIn(provider) }
        }
    }

    func testALoginWithoutAnIDTokenIsRefused() async throws {
        let provider = try FakeProvider()
        provider.edit { $0.handlers["/token"] = { _ in FakeProvider.json(["access_token": "a", "token_type": "Bearer", "expires_in": 60]) } }
        await assertSessionError(.idTokenMissing) { try await self.signIn(provider) }
    }
}
