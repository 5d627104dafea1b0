import ClientTestSupport
import Foundation
import SessionCore
import SessionTesting
import XCTest

/// RFC 6749 §5.1/§5.2: malformed or refused code exchanges end with a specific error and store nothing.
final class TokenResponseTests: XCTestCase {
    private func exchange(returning response: HTTPResponse) async throws -> (SessionError?, RecordingStore) {
        let provider = try FakeProvider()
        provider.edit { $0.handlers["/token"] = { _ in response } }
        let store = RecordingStore()
        let client = try makeClient(provider, store: store)
        do {
            _ = try await client.signIn(scopes: ["permission_management"], agent: provider)
            return (nil, store)
        } catch {
            return (error as? SessionError, store)
        }
    }

    private func assertRefused(_ body: Any, code: SessionError.Code, status: Int = 200, file: StaticString = #filePath, line: UInt = #line) async throws {
        let (error, store) = try await exchange(returning: FakeProvider.json(body, status: status))
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
        let (error, store) = try await exchange(returning: FakeProvider.json(["access_token": "a", "token_type": "bearer", "expires_in": "300"]))
        XCTAssertNil(error)
        XCTAssertNotNil(store.contents?.expiresAt)
        XCTAssertEqual(store.contents?.tokenType, "bearer", "kept as the provider spelled it")
    }

    func testNonStandardStringMembersAreKeptAndNeverPrinted() async throws {
        let body: [String: Any] = ["access_token": "a", "token_type": "Bearer", "server_code": "4/server-secret", "count": 3]
        let (error, store) = try await exchange(returning: FakeProvider.json(body))
        XCTAssertNil(error)
        XCTAssertEqual(store.contents?.additionalParameters, ["server_code": "4/server-secret"])
        XCTAssertFalse(String(describing: store.contents).contains("server-secret"))
    }

    func testTokenRequestParametersGoWithTheCodeExchangeAndTheRefresh() async throws {
        let provider = try FakeProvider()
        let config = try SessionConfiguration(issuer: FakeProvider.issuer, clientID: FakeProvider.clientID, redirectURI: FakeProvider.redirectURI,
                                              tokenRequestParameters: ["audience": "backend", "openid.realm": "https://realm.example"])
        let client = try makeClient(provider, configuration: config)
        _ = try await client.signIn(agent: provider)
        _ = try await client.refresh()
        let forms = provider.requests(to: "/token").map { FakeProvider.form($0) }
        XCTAssertEqual(forms.map { $0["grant_type"] }, ["authorization_code", "refresh_token"])
        XCTAssertEqual(forms.map { $0["audience"] }, ["backend", "backend"])
        XCTAssertEqual(forms.map { $0["openid.realm"] }, ["https://realm.example", "https://realm.example"])
        XCTAssertNil(provider.lastAuthorization["audience"], "authorization parameters are configured apart")
    }

    func testNonJSONAndHugeBodies() async throws {
        var (error, _) = try await exchange(returning: HTTPResponse(status: 200, body: Data("<html>oops</html>".utf8)))
        XCTAssertEqual(error?.code, .invalidResponse)
        (error, _) = try await exchange(returning: HTTPResponse(status: 200, body: Data(repeating: 0x20, count: (1 << 20) + 1)))
        XCTAssertEqual(error?.code, .responseTooLarge)
    }

    func testOAuthErrorResponsesKeepTheProvidersWords() async throws {
        let (error, _) = try await exchange(returning: FakeProvider.json(["error": "invalid_grant", "error_description": "code used"], status: 400))
        XCTAssertEqual(error?.code, .invalidGrant)
        XCTAssertEqual(error?.oauthError, "invalid_grant")
        XCTAssertEqual(error?.oauthErrorDescription, "code used")
        XCTAssertEqual(error?.httpStatus, 400)
        try await assertRefused(["error": "invalid_client"], code: .invalidClient, status: 401)
        try await assertRefused(["error": "unsupported_grant_type"], code: .unsupportedGrantType, status: 400)
    }

    func testServerFailuresAndRedirects() async throws {
        var (error, _) = try await exchange(returning: HTTPResponse(status: 502, body: Data("bad gateway".utf8)))
        XCTAssertEqual(error?.code, .serverError)
        XCTAssertEqual(error?.httpStatus, 502)
        (error, _) = try await exchange(returning: HTTPResponse(status: 302, headers: ["Location": "https://elsewhere"]))
        XCTAssertEqual(error?.code, .unexpectedResponse)
    }

    func testTheTokenRequestIsAFormPostThatDoesNotFollowRedirects() async throws {
        let provider = try FakeProvider()
        _ = try await makeClient(provider).signIn(agent: provider)
        let request = try XCTUnwrap(provider.requests(to: "/token").first)
        XCTAssertEqual(request.method, "POST")
        XCTAssertFalse(request.followsRedirects)
        XCTAssertEqual(request.headers["Content-Type"], "application/x-www-form-urlencoded")
        let form = FakeProvider.form(request)
        XCTAssertEqual(form["grant_type"], "authorization_code")
        XCTAssertEqual(form["client_id"], FakeProvider.clientID)
        XCTAssertEqual(form["redirect_uri"], FakeProvider.redirectURI.absoluteString)
        XCTAssertEqual(form["code_verifier"]?.count, 43)
        XCTAssertNil(form["client_secret"])
    }
}
