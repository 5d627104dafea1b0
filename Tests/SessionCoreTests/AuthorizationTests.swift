import ClientTestSupport
import Foundation
import SessionCore
import SessionTesting
import XCTest

final class AuthorizationTests: XCTestCase {
    /// The core speaks scopes: named ones are sent as named, in order; without `openid` no ID
    /// token is asked for; an empty list or a malformed scope is the caller's error.
    func testNamedScopesAreSentAsNamed() async throws {
        let provider = try FakeProvider()
        let client = try makeClient(provider)
        let request = try await client.beginAuthorization(scopes: ["permission_management", "email"])
        XCTAssertEqual(request.scopes, ["permission_management", "email"])
        XCTAssertFalse(request.requestsIDToken)
        XCTAssertNil(request.nonce)
        let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        XCTAssertEqual(query.first { $0.name == "scope" }?.value, "permission_management email")
        for scopes in [[], ["two words"], ["quote\""]] {
            await assertSessionError(.invalidConfiguration, process: .authentication) { try await client.beginAuthorization(scopes: scopes) }
        }
    }

    func testSignInSendsPKCES256StateNonceAndStoresTheSession() async throws {
        let provider = try FakeProvider()
        let store = RecordingStore()
        let config = try SessionConfiguration(issuer: FakeProvider.issuer, clientID: FakeProvider.clientID,
                                              redirectURI: FakeProvider.redirectURI, scopes: ["profile"],
                                              claims: "{\"userinfo\":{\"email\":null}}", prompt: "consent", loginHint: "user@example.com",
                                              additionalParameters: ["ui_locales": "de"])
        let client = try makeClient(provider, store: store, configuration: config)
        let tokens = try await client.signIn(agent: provider)

        let sent = provider.lastAuthorization
        XCTAssertEqual(sent["response_type"], "code")
        XCTAssertEqual(sent["code_challenge_method"], "S256")
        XCTAssertEqual(sent["code_challenge"]?.count, 43)
        XCTAssertEqual(sent["scope"], "openid profile", "no scopes named: openid and the configured ones")
        XCTAssertEqual(sent["claims"], "{\"userinfo\":{\"email\":null}}")
        XCTAssertEqual(sent["prompt"], "consent")
        XCTAssertEqual(sent["login_hint"], "user@example.com")
        XCTAssertEqual(sent["ui_locales"], "de")
        XCTAssertEqual(sent["state"]?.count, 43)
        XCTAssertEqual(sent["nonce"]?.count, 43)
        XCTAssertEqual(tokens.subject, FakeProvider.subject)
        XCTAssertNotNil(tokens.refreshToken)
        XCTAssertEqual(store.contents, tokens)
        let current = await client.tokens
        XCTAssertEqual(current, tokens)
    }

    func testEachRequestHasFreshStateNonceAndVerifier() async throws {
        let provider = try FakeProvider()
        let client = try makeClient(provider)
        let first = try await client.beginAuthorization()
        let second = try await client.beginAuthorization()
        let query = { (url: URL) in URLComponents(url: url, resolvingAgainstBaseURL: false)!.queryItems! }
        for name in ["state", "nonce", "code_challenge"] {
            XCTAssertNotEqual(query(first.url).first { $0.name == name }?.value, query(second.url).first { $0.name == name }?.value, name)
        }
        XCTAssertFalse(first.description.contains(query(first.url).first { $0.name == "state" }!.value!))
    }

    func testPermissionFlowNeedsNoIDTokenAndSendsNoClaimsRequest() async throws {
        let provider = try FakeProvider()
        let config = try SessionConfiguration(issuer: FakeProvider.issuer, clientID: FakeProvider.clientID,
                                              redirectURI: FakeProvider.redirectURI, claims: "{\"userinfo\":{\"email\":null}}")
        let client = try makeClient(provider, configuration: config)
        let tokens = try await client.signIn(scopes: ["permission_management"], agent: provider)
        XCTAssertNil(provider.lastAuthorization["claims"], "a claims request asks for ID-token and UserInfo claims")
        XCTAssertNil(provider.lastAuthorization["nonce"])
        XCTAssertEqual(provider.lastAuthorization["scope"], "permission_management")
        XCTAssertNotNil(tokens.accessToken)
    }

    // MARK: Redirect rejections

    private func completeWith(_ change: @escaping (inout URLComponents, [String: String]) -> Void) async throws -> (SessionClient, FakeProvider, Result<SessionTokens, Error>) {
        let provider = try FakeProvider()
        let client = try makeClient(provider)
        let request = try await client.beginAuthorization()
        let callback = try await provider.authorize(url: request.url, redirectURI: request.redirectURI)
        var components = URLComponents(url: callback, resolvingAgainstBaseURL: false)!
        change(&components, provider.lastAuthorization)
        let result = await Result { try await client.completeAuthorization(callbackURL: components.url!) }
        return (client, provider, result)
    }

    private func assertRejected(_ code: SessionError.Code, file: StaticString = #filePath, line: UInt = #line,
                                _ change: @escaping (inout URLComponents, [String: String]) -> Void) async throws {
        let (_, provider, result) = try await completeWith(change)
        XCTAssertThrowsError(try result.get(), file: file, line: line) { error in
            XCTAssertEqual((error as? SessionError)?.code, code, "\(error)", file: file, line: line)
            XCTAssertEqual((error as? SessionError)?.process, .authentication, file: file, line: line)
        }
        XCTAssertTrue(provider.requests(to: "/token").isEmpty, "no code may be exchanged", file: file, line: line)
    }

    func testRedirectToAnotherSchemeHostPortOrPathIsRefused() async throws {
        try await assertRejected(.redirectURIMismatch) { url, _ in url.scheme = "com.evil.app" }
        try await assertRejected(.redirectURIMismatch) { url, _ in url.host = "elsewhere" }
        try await assertRejected(.redirectURIMismatch) { url, _ in url.path = "/oauth/other" }
        let provider = try FakeProvider()
        let config = try SessionConfiguration(issuer: FakeProvider.issuer, clientID: FakeProvider.clientID,
                                              redirectURI: URL(string: "http://127.0.0.1:8123/callback")!)
        let client = try makeClient(provider, configuration: config)
        let request = try await client.beginAuthorization()
        var callback = URLComponents(url: try await provider.authorize(url: request.url, redirectURI: request.redirectURI), resolvingAgainstBaseURL: false)!
        callback.port = 8124
        await assertSessionError(.redirectURIMismatch) { try await client.completeAuthorization(callbackURL: callback.url!) }
    }

    func testMissingWrongOrDuplicatedStateIsRefused() async throws {
        try await assertRejected(.stateMismatch) { url, _ in url.queryItems?.removeAll { $0.name == "state" } }
        try await assertRejected(.stateMismatch) { url, _ in
            url.queryItems = url.queryItems?.map { $0.name == "state" ? URLQueryItem(name: "state", value: "forged") : $0 }
        }
        try await assertRejected(.duplicateParameter) { url, sent in url.queryItems?.append(URLQueryItem(name: "state", value: sent["state"])) }
        try await assertRejected(.duplicateParameter) { url, _ in url.queryItems?.append(URLQueryItem(name: "code", value: "other")) }
    }

    func testAReplayedResponseIsRefused() async throws {
        let provider = try FakeProvider()
        let client = try makeClient(provider)
        let request = try await client.beginAuthorization()
        let callback = try await provider.authorize(url: request.url, redirectURI: request.redirectURI)
        _ = try await client.completeAuthorization(callbackURL: callback)
        await assertSessionError(.stateMismatch) { try await client.completeAuthorization(callbackURL: callback) }
        XCTAssertEqual(provider.requests(to: "/token").count, 1)
    }

    func testAResponseToAReplacedRequestIsRefused() async throws {
        let provider = try FakeProvider()
        let client = try makeClient(provider)
        let first = try await client.beginAuthorization()
        let callback = try await provider.authorize(url: first.url, redirectURI: first.redirectURI)
        _ = try await client.beginAuthorization()
        await assertSessionError(.stateMismatch) { try await client.completeAuthorization(callbackURL: callback) }
    }

    func testAWrongStateLeavesThePendingRequestUsable() async throws {
        let provider = try FakeProvider()
        let client = try makeClient(provider)
        let request = try await client.beginAuthorization()
        let callback = try await provider.authorize(url: request.url, redirectURI: request.redirectURI)
        var forged = URLComponents(url: callback, resolvingAgainstBaseURL: false)!
        forged.queryItems = [URLQueryItem(name: "code", value: "attacker"), URLQueryItem(name: "state", value: "attacker")]
        await assertSessionError(.stateMismatch) { try await client.completeAuthorization(callbackURL: forged.url!) }
        let tokens = try await client.completeAuthorization(callbackURL: callback)
        XCTAssertEqual(tokens.subject, FakeProvider.subject)
    }

    func testAnErrorResponseKeepsTheProvidersWords() async throws {
        let (_, _, result) = try await completeWith { url, sent in
            url.queryItems = [URLQueryItem(name: "error", value: "access_denied"),
                              URLQueryItem(name: "error_description", value: "The user said no"),
                              URLQueryItem(name: "state", value: sent["state"])]
        }
        XCTAssertThrowsError(try result.get()) { error in
            let error = error as? SessionError
            XCTAssertEqual(error?.code, .accessDenied)
            XCTAssertEqual(error?.oauthError, "access_denied")
            XCTAssertEqual(error?.oauthErrorDescription, "The user said no")
        }
        let (_, _, unknown) = try await completeWith { url, sent in
            url.queryItems = [URLQueryItem(name: "error", value: "vendor_specific"), URLQueryItem(name: "state", value: sent["state"])]
        }
        XCTAssertEqual((unknown.failure as? SessionError)?.code, .oauthError)
        XCTAssertEqual((unknown.failure as? SessionError)?.oauthError, "vendor_specific")
    }

    func testAMissingCodeIsRefused() async throws {
        try await assertRejected(.missingAuthorizationCode) { url, _ in url.queryItems?.removeAll { $0.name == "code" } }
    }

    func testIssParameterMustMatchAndIsRequiredWhenDeclared() async throws {
        try await assertRejected(.authorizationIssuerMismatch) { url, _ in url.queryItems?.append(URLQueryItem(name: "iss", value: "https://evil.example")) }

        let provider = try FakeProvider()
        provider.edit { $0.discovery["authorization_response_iss_parameter_supported"] = true }
        let client = try makeClient(provider)
        let request = try await client.beginAuthorization()
        let callback = try await provider.authorize(url: request.url, redirectURI: request.redirectURI)
        await assertSessionError(.authorizationIssuerMissing) { try await client.completeAuthorization(callbackURL: callback) }

        let again = try await client.beginAuthorization()
        var withIss = URLComponents(url: try await provider.authorize(url: again.url, redirectURI: again.redirectURI), resolvingAgainstBaseURL: false)!
        withIss.queryItems?.append(URLQueryItem(name: "iss", value: FakeProvider.issuer.absoluteString))
        let tokens = try await client.completeAuthorization(callbackURL: withIss.url!)
        XCTAssertEqual(tokens.subject, FakeProvider.subject)
    }

    func testAnAgentThatCancelsGivesCancelledAndNoPendingRequest() async throws {
        struct Cancelling: AuthorizationAgent {
            func authorize(url: URL, redirectURI: URL) async throws -> URL {
                throw SessionError(.cancelled, process: .authentication, message: "user closed the browser")
            }
        }
        let provider = try FakeProvider()
        let client = try makeClient(provider)
        await assertSessionError(.cancelled, process: .authentication) { try await client.signIn(agent: Cancelling()) }
        let pending = await client.isRedirectForPendingAuthorization(FakeProvider.redirectURI)
        XCTAssertFalse(pending)
    }

    func testAnAgentThatFailsIsAFailureNotACancellation() async throws {
        struct NoBrowser: Error {}
        struct Failing: AuthorizationAgent {
            func authorize(url: URL, redirectURI: URL) async throws -> URL { throw NoBrowser() }
        }
        let provider = try FakeProvider()
        let client = try makeClient(provider)
        do {
            _ = try await client.signIn(agent: Failing())
            XCTFail("the agent failed")
        } catch let error as SessionError {
            XCTAssertEqual(error.code, .authorizationAgentFailed)
            XCTAssertEqual(error.process, .authentication)
            XCTAssertTrue(error.message.contains("NoBrowser"), error.message)
        }
        let pending = await client.isRedirectForPendingAuthorization(FakeProvider.redirectURI)
        XCTAssertFalse(pending)
    }

    func testPendingRedirectMatchingIgnoresQueryButNotTarget() async throws {
        let provider = try FakeProvider()
        let client = try makeClient(provider)
        var matches = await client.isRedirectForPendingAuthorization(FakeProvider.redirectURI)
        XCTAssertFalse(matches)
        _ = try await client.beginAuthorization()
        matches = await client.isRedirectForPendingAuthorization(URL(string: "com.example.app:/oauth/callback?code=x&state=y")!)
        XCTAssertTrue(matches)
        matches = await client.isRedirectForPendingAuthorization(URL(string: "com.example.app:/elsewhere?code=x")!)
        XCTAssertFalse(matches)
        await client.cancelAuthorization()
        matches = await client.isRedirectForPendingAuthorization(FakeProvider.redirectURI)
        XCTAssertFalse(matches)
    }
}

extension Result where Failure == Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }

    var failure: Error? { if case .failure(let error) = self { error } else { nil } }
}
