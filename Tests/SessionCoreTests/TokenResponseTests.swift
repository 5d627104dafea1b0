import ClientTestSupport
import Foundation
import SessionCore
import SessionTesting
import XCTest

/// RFC 6749 §5.1/§5.2: malformed or refused code exchanges end with a specific error and store
/// nothing. LocalProvider answers the code exchange with the body each test gives.
final class TokenResponseTests: XCTestCase {
    private func exchange(returning fault: LocalProvider.Fault) async throws -> (SessionError?, RecordingStore) {
        let harness = try makeLocalHarness()
        harness.provider.inject(fault, at: .token)
        do {
            _ = try await harness.client.signIn(scopes: ["permission_management"], agent: HeadlessUserAgent())
            return (nil, harness.store)
        } catch {
            return (error as? SessionError, harness.store)
        }
    }

    private func exchange(returning body: Any, status: Int = 200) async throws -> (SessionError?, RecordingStore) {
        let text = String(decoding: try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys]), as: UTF8.self)
        return try await exchange(returning: .status(status, body: text))
    }

    private func assertRefused(_ body: Any, code: SessionError.Code, status: Int = 200, file: StaticString = #filePath, line: UInt = #line) async throws {
        let (error, store) = try await exchange(returning: body, status: status)
        XCTAssertEqual(error?.code, code, "\(String(describing: error))", file: file, line: line)
        XCTAssertEqual(error?.process, .authentication, file: file, line: line)
        XCTAssertNil(store.contents, file: file, line: line)
    }

    func testMissingFieldsAndWrongTypes() async throws {
        try await assertRefused(["token_type": "Bearer", "expires_in": 60], code: .invalidResponse)
        try await assertRefused(["access_token": "a", "expires_in": 60], code: .invalidResponse)
        try await assertRefused(["access_token": "a", "token_type": "mac", "expires_in": 60], code: .invalidResponse)
        try await assertRefused(["access_token": 12, "token_type": "Bearer"], code: .invalidResponse)
        try await assertRefused(["access_token": "a", "token_type": "Bearer", "expires_in": true], code: .invalidResponse)
        try await assertRefused(["access_token": "a", "token_type": "Bearer", "expires_in": -5], code: .invalidResponse)
        try await assertRefused(["access_token": "a", "token_type": "Bearer", "expires_in": "soon"], code: .invalidResponse)
        try await assertRefused(["access_token": "a", "token_type": "Bearer", "refresh_token": ["x"]], code: .invalidResponse)
    }

    func testNumericStringExpiryAndLowercaseBearerAreAccepted() async throws {
        let (error, store) = try await exchange(returning: ["access_token": "a", "token_type": "bearer", "expires_in": "300"])
        XCTAssertNil(error)
        XCTAssertNotNil(store.contents?.expiresAt)
        XCTAssertEqual(store.contents?.tokenType, "bearer", "kept as the provider spelled it")
    }

    func testNonStandardStringMembersAreKeptAndNeverPrinted() async throws {
        let body: [String: Any] = ["access_token": "a", "token_type": "Bearer", "server_code": "4/server-secret", "count": 3]
        let (error, store) = try await exchange(returning: body)
        XCTAssertNil(error)
        XCTAssertEqual(store.contents?.additionalParameters, ["server_code": "4/server-secret"])
        XCTAssertFalse(String(describing: store.contents).contains("server-secret"))
    }

    func testTokenRequestParametersGoWithTheCodeExchangeAndTheRefresh() async throws {
        let harness = try makeLocalHarness()
        let config = try SessionConfiguration(issuer: harness.provider.issuer, clientID: harness.client.configuration.clientID,
                                              redirectURI: harness.client.configuration.redirectURI,
                                              tokenRequestParameters: ["audience": "backend", "openid.realm": "https://realm.example"])
        let client = SessionClient(configuration: config, transport: CurlTransport(timeout: 5), clock: harness.clock)
        _ = try await client.signIn(agent: HeadlessUserAgent())
        _ = try await client.refresh()
        let forms = harness.provider.requests(to: .token).map(\.parameters)
        XCTAssertEqual(forms.map { $0["grant_type"] }, ["authorization_code", "refresh_token"])
        XCTAssertEqual(forms.map { $0["audience"] }, ["backend", "backend"])
        XCTAssertEqual(forms.map { $0["openid.realm"] }, ["https://realm.example", "https://realm.example"])
        XCTAssertNil(harness.provider.requests(to: .authorization).last?.parameters["audience"], "authorization parameters are configured apart")
    }

    func testNonJSONAndHugeBodies() async throws {
        var (error, _) = try await exchange(returning: .status(200, body: "<html>oops</html>", contentType: "text/html"))
        XCTAssertEqual(error?.code, .invalidResponse)
        (error, _) = try await exchange(returning: .status(200, body: String(repeating: " ", count: (1 << 20) + 1)))
        XCTAssertEqual(error?.code, .responseTooLarge)
    }

    func testOAuthErrorResponsesKeepTheProvidersWords() async throws {
        let (error, _) = try await exchange(returning: ["error": "invalid_grant", "error_description": "code used"], status: 400)
        XCTAssertEqual(error?.code, .invalidGrant)
        XCTAssertEqual(error?.oauthError, "invalid_grant")
        XCTAssertEqual(error?.oauthErrorDescription, "code used")
        XCTAssertEqual(error?.httpStatus, 400)
        try await assertRefused(["error": "invalid_client"], code: .invalidClient, status: 401)
        try await assertRefused(["error": "unsupported_grant_type"], code: .unsupportedGrantType, status: 400)
    }

    func testServerFailuresAndRedirects() async throws {
        var (error, _) = try await exchange(returning: .status(502, body: "bad gateway", contentType: "text/plain"))
        XCTAssertEqual(error?.code, .serverError)
        XCTAssertEqual(error?.httpStatus, 502)
        (error, _) = try await exchange(returning: .status(302, headers: ["Location": "https://elsewhere.example/token"]))
        XCTAssertEqual(error?.code, .unexpectedResponse)
    }

    func testTheTokenRequestIsAFormPostThatDoesNotFollowRedirects() async throws {
        // LocalProvider reads only a form POST at its token endpoint, as RFC 6749 §3.2 asks.
        let harness = try makeLocalHarness()
        _ = try await harness.signIn(.login)
        let request = try XCTUnwrap(harness.provider.requests(to: .token).first)
        XCTAssertEqual(request.method, "POST")
        let form = request.parameters
        XCTAssertEqual(form["grant_type"], "authorization_code")
        XCTAssertEqual(form["client_id"], harness.client.configuration.clientID)
        XCTAssertEqual(form["redirect_uri"], harness.client.configuration.redirectURI.absoluteString)
        XCTAssertEqual(form["code_verifier"]?.count, 43)
        XCTAssertNil(form["client_secret"])
        // A redirect from the token endpoint, even to itself, is not followed: the code is sent once.
        let again = try makeLocalHarness()
        again.provider.inject(.status(307, headers: ["Location": again.provider.url(of: .token).absoluteString]), at: .token)
        await assertSessionError(.unexpectedResponse) { try await again.signIn(.login) }
        XCTAssertEqual(again.provider.requests(to: .token).count, 1)
    }
}
