import ClientTestSupport
import Foundation
@testable import SessionCore
import SessionTesting
import XCTest

/// ID tokens are read as RFC 7515, RFC 7519 and OpenID Connect Core say, not leniently: a member
/// given twice, a critical extension, a claim of the wrong JSON type, a token not valid yet, a
/// byte-order mark are each refused, and nothing is stored.
final class IDTokenStrictnessTests: XCTestCase {
    private static let header = #"{"alg":"RS256","kid":"key-1"}"#

    /// The claims a valid token carries, as JSON members (without braces), for `nonce` at `now`.
    private static func members(nonce: String, now: Double) -> String {
        #""iss":"https://op.example","sub":"user-1","aud":"client-1","exp":\#(Int(now) + 3600),"iat":\#(Int(now)),"nonce":"\#(nonce)""#
    }

    private func assertRefused(_ code: SessionError.Code, header: String = IDTokenStrictnessTests.header, file: StaticString = #filePath,
                               line: UInt = #line, payload: @escaping (_ members: String) -> String) async throws {
        let provider = try FakeProvider()
        provider.edit { $0.craftIDToken = { nonce, now in (header, payload(Self.members(nonce: nonce, now: now))) } }
        let store = RecordingStore()
        let client = try makeClient(provider, store: store)
        await assertSessionError(code, process: .authentication, file: file, line: line) { try await client.signIn(agent: provider) }
        XCTAssertNil(store.contents, "nothing stored", file: file, line: line)
    }

    func testTheCraftedTokenIsAcceptedAsItIs() async throws {
        // The baseline the refusals below depart from by one change each.
        let provider = try FakeProvider()
        provider.edit { $0.craftIDToken = { nonce, now in (Self.header, "{\(Self.members(nonce: nonce, now: now))}") } }
        let tokens = try await makeClient(provider).signIn(agent: provider)
        XCTAssertEqual(tokens.subject, "user-1")
    }

    func testAClaimGivenTwiceIsRefused() async throws {
        for (name, value) in [("aud", #""client-1""#), ("iss", #""https://op.example""#), ("sub", #""user-2""#), ("exp", "1")] {
            try await assertRefused(.idTokenMalformed) { "{\($0),\"\(name)\":\(value)}" }
        }
    }

    func testAHeaderMemberGivenTwiceIsRefused() async throws {
        try await assertRefused(.idTokenMalformed, header: #"{"alg":"RS256","kid":"key-1","alg":"none"}"#) { "{\($0)}" }
    }

    func testCritIsRefusedWhateverItsValue() async throws {
        for crit in [#"[]"#, #"["exp"]"#, #"["b64"]"#, #""x""#] {
            try await assertRefused(.idTokenMalformed, header: #"{"alg":"RS256","kid":"key-1","crit":\#(crit)}"#) { "{\($0)}" }
        }
    }

    func testAByteOrderMarkBeforeThePayloadIsRefused() async throws {
        try await assertRefused(.idTokenMalformed) { "\u{FEFF}{\($0)}" }
    }

    func testANotBeforeInTheFutureIsRefused() async throws {
        let provider = try FakeProvider()
        let now = provider.clock.now().timeIntervalSince1970
        try await assertRefused(.idTokenNotYetValid) { "{\($0),\"nbf\":\(Int(now) + 86_400)}" }
        // Within the allowed skew (120 s) it is accepted.
        provider.edit { $0.craftIDToken = { nonce, now in (Self.header, "{\(Self.members(nonce: nonce, now: now)),\"nbf\":\(Int(now) + 60)}") } }
        _ = try await makeClient(provider).signIn(agent: provider)
    }

    func testClaimsOfTheWrongTypeAreRefused() async throws {
        try await assertRefused(.idTokenMalformed) { "{\($0),\"azp\":[\"client-1\"]}" }
        try await assertRefused(.idTokenMalformed) { $0.replacingOccurrences(of: #""aud":"client-1""#, with: #""aud":["client-1",7]"#) }
        try await assertRefused(.idTokenMalformed) { $0.replacingOccurrences(of: #""aud":"client-1""#, with: #""aud":{"client-1":true}"#) }
        try await assertRefused(.idTokenMalformed) { "{\($0),\"nbf\":\"soon\"}" }
        try await assertRefused(.idTokenMalformed) { $0.replacingOccurrences(of: #""sub":"user-1""#, with: #""sub":1"#) }
    }

    func testAHeaderWithAKeyIDThatIsNoStringIsRefused() async throws {
        try await assertRefused(.idTokenMalformed, header: #"{"alg":"RS256","kid":1}"#) { "{\($0)}" }
        try await assertRefused(.idTokenMalformed, header: #"{"alg":["RS256"],"kid":"key-1"}"#) { "{\($0)}" }
    }

    func testAKeySetWithAMemberGivenTwiceIsRefused() async throws {
        let provider = try FakeProvider()
        let jwk = try XCTUnwrap(String(data: SigningKey.jwksDocument([provider.key.publicJWK]), encoding: .utf8))
        provider.edit { $0.handlers["/jwks"] = { _ in HTTPResponse(status: 200, body: Data(jwk.replacingOccurrences(of: #""kty":"RSA""#, with: #""kty":"RSA","kty":"EC""#).utf8)) } }
        await assertSessionError(.invalidResponse, process: .authentication) { try await makeClient(provider).signIn(agent: provider) }
    }

    /// A token without `kid` facing several keys that fit: the error says so, and the key set is
    /// fetched once (a reload cannot make the choice unambiguous).
    func testATokenNamingNoKeyAmongSeveralSaysSoAndFetchesTheSetOnce() async throws {
        let provider = try FakeProvider()
        let other = try SigningKey(algorithm: .rs256, keyID: "key-2")
        let keys = SigningKey.jwksDocument([provider.key.publicJWK, other.publicJWK])
        provider.edit { settings in
            settings.handlers["/jwks"] = { _ in HTTPResponse(status: 200, body: keys) }
            settings.craftIDToken = { nonce, now in (#"{"alg":"RS256"}"#, "{\(Self.members(nonce: nonce, now: now))}") }
        }
        let error = await assertSessionError(.idTokenUnknownKey) { try await makeClient(provider).signIn(agent: provider) }
        XCTAssertEqual(error?.message.contains("the token names no key ('kid') and the provider has 2 RS256 keys that fit"), true,
                       error?.message ?? "")
        XCTAssertEqual(provider.requests(to: "/jwks").count, 1)
    }
}
