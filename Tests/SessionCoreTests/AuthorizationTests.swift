import ClientTestSupport
import Foundation
import SessionCore
import SessionTesting
import XCTest

/// The authorization request and its response (RFC 6749 §4.1, RFC 7636, OIDC Core §3.1.2,
/// RFC 9207), against LocalProvider; a response the provider would not send is made by editing
/// the one it sent.
final class AuthorizationTests: XCTestCase {
    /// The parameters of the last authorization request the provider received.
    private func lastAuthorization(_ harness: LocalHarness) -> [String: String] {
        harness.provider.requests(to: .authorization).last?.parameters ?? [:]
    }

    /// The core speaks scopes: named ones are sent as named, in order; without `openid` no ID
    /// token is asked for; an empty list or a malformed scope is the caller's error.
    func testNamedScopesAreSentAsNamed() async throws {
        let client = try makeLocalHarness().client
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
        let harness = try makeLocalHarness()
        let config = try SessionConfiguration(issuer: harness.provider.issuer, clientID: harness.client.configuration.clientID,
                                              redirectURI: harness.client.configuration.redirectURI, scopes: ["profile"],
                                              claims: "{\"userinfo\":{\"email\":null}}", prompt: "consent", loginHint: "erika@example.com",
                                              additionalParameters: ["ui_locales": "de"])
        let store = RecordingStore()
        let client = SessionClient(configuration: config, store: store, transport: CurlTransport(timeout: 5), clock: harness.clock)
        let tokens = try await client.signIn(agent: HeadlessUserAgent())

        let sent = lastAuthorization(harness)
        XCTAssertEqual(sent["response_type"], "code")
        XCTAssertEqual(sent["code_challenge_method"], "S256")
        XCTAssertEqual(sent["code_challenge"]?.count, 43)
        XCTAssertEqual(sent["scope"], "openid profile", "no scopes named: openid and the configured ones")
        XCTAssertEqual(sent["claims"], "{\"userinfo\":{\"email\":null}}")
        XCTAssertEqual(sent["prompt"], "consent")
        XCTAssertEqual(sent["login_hint"], "erika@example.com")
        XCTAssertEqual(sent["ui_locales"], "de")
        XCTAssertEqual(sent["state"]?.count, 43)
        XCTAssertEqual(sent["nonce"]?.count, 43)
        XCTAssertEqual(tokens.subject, LocalProvider.User.erika.subject)
        XCTAssertNotNil(tokens.refreshToken)
        XCTAssertEqual(store.contents, tokens)
        let current = await client.tokens
        XCTAssertEqual(current, tokens)
    }

    func testEachRequestHasFreshStateNonceAndVerifier() async throws {
        let client = try makeLocalHarness().client
        let first = try await client.beginAuthorization()
        let second = try await client.beginAuthorization()
        let query = { (url: URL) in URLComponents(url: url, resolvingAgainstBaseURL: false)!.queryItems! }
        for name in ["state", "nonce", "code_challenge"] {
            XCTAssertNotEqual(query(first.url).first { $0.name == name }?.value, query(second.url).first { $0.name == name }?.value, name)
        }
        XCTAssertFalse(first.description.contains(query(first.url).first { $0.name == "state" }!.value!))
    }

    func testPermissionFlowNeedsNoIDTokenAndSendsNoClaimsRequest() async throws {
        let harness = try makeLocalHarness()
        let config = try SessionConfiguration(issuer: harness.provider.issuer, clientID: harness.client.configuration.clientID,
                                              redirectURI: harness.client.configuration.redirectURI, claims: "{\"userinfo\":{\"email\":null}}")
        let client = SessionClient(configuration: config, transport: CurlTransport(timeout: 5), clock: harness.clock)
        let tokens = try await client.signIn(scopes: ["permission_management"], agent: HeadlessUserAgent())
        let sent = lastAuthorization(harness)
        XCTAssertNil(sent["claims"], "a claims request asks for ID-token and UserInfo claims")
        XCTAssertNil(sent["nonce"])
        XCTAssertEqual(sent["scope"], "permission_management")
        XCTAssertNil(tokens.idToken)
    }

    // MARK: Redirect rejections

    /// Completes a sign-in with the provider's redirect as `change` edits it (given the request's
    /// parameters as sent).
    private func completeWith(_ change: @escaping (inout URLComponents, [String: String]) -> Void) async throws -> (LocalHarness, Result<SessionTokens, Error>) {
        let harness = try makeLocalHarness()
        let request = try await harness.client.beginAuthorization()
        let callback = try await HeadlessUserAgent().authorize(url: request.url, redirectURI: request.redirectURI)
        var components = URLComponents(url: callback, resolvingAgainstBaseURL: false)!
        change(&components, lastAuthorization(harness))
        let result = await Result { try await harness.client.completeAuthorization(callbackURL: components.url!) }
        return (harness, result)
    }

    private func assertRejected(_ code: SessionError.Code, file: StaticString = #filePath, line: UInt = #line,
                                _ change: @escaping (inout URLComponents, [String: String]) -> Void) async throws {
        let (harness, result) = try await completeWith(change)
        XCTAssertThrowsError(try result.get(), file: file, line: line) { error in
            XCTAssertEqual((error as? SessionError)?.code, code, "\(error)", file: file, line: line)
            XCTAssertEqual((error as? SessionError)?.process, .authentication, file: file, line: line)
        }
        XCTAssertTrue(harness.provider.requests(to: .token).isEmpty, "no code may be exchanged", file: file, line: line)
    }

    private static func replacing(_ name: String, with value: String) -> (inout URLComponents, [String: String]) -> Void {
        { url, _ in url.queryItems = url.queryItems?.map { $0.name == name ? URLQueryItem(name: name, value: value) : $0 } }
    }

    func testRedirectToAnotherSchemeHostPortOrPathIsRefused() async throws {
        try await assertRejected(.redirectURIMismatch) { url, _ in url.scheme = "com.evil.app" }
        try await assertRejected(.redirectURIMismatch) { url, _ in url.host = "elsewhere" }
        try await assertRejected(.redirectURIMismatch) { url, _ in url.path = "/oauth/other" }
        let harness = try makeLocalHarness(redirectURI: URL(string: "http://127.0.0.1:8123/callback")!)
        let request = try await harness.client.beginAuthorization()
        var callback = URLComponents(url: try await HeadlessUserAgent().authorize(url: request.url, redirectURI: request.redirectURI),
                                     resolvingAgainstBaseURL: false)!
        callback.port = 8124
        await assertSessionError(.redirectURIMismatch) { try await harness.client.completeAuthorization(callbackURL: callback.url!) }
    }

    func testMissingWrongOrDuplicatedStateIsRefused() async throws {
        try await assertRejected(.stateMismatch) { url, _ in url.queryItems?.removeAll { $0.name == "state" } }
        try await assertRejected(.stateMismatch, Self.replacing("state", with: "forged"))
        try await assertRejected(.duplicateParameter) { url, sent in url.queryItems?.append(URLQueryItem(name: "state", value: sent["state"])) }
        try await assertRejected(.duplicateParameter) { url, _ in url.queryItems?.append(URLQueryItem(name: "code", value: "other")) }
    }

    func testAReplayedResponseIsRefused() async throws {
        let harness = try makeLocalHarness()
        let request = try await harness.client.beginAuthorization()
        let callback = try await HeadlessUserAgent().authorize(url: request.url, redirectURI: request.redirectURI)
        _ = try await harness.client.completeAuthorization(callbackURL: callback)
        await assertSessionError(.stateMismatch) { try await harness.client.completeAuthorization(callbackURL: callback) }
        XCTAssertEqual(harness.provider.requests(to: .token).count, 1)
    }

    func testAResponseToAReplacedRequestIsRefused() async throws {
        let harness = try makeLocalHarness()
        let first = try await harness.client.beginAuthorization()
        let callback = try await HeadlessUserAgent().authorize(url: first.url, redirectURI: first.redirectURI)
        _ = try await harness.client.beginAuthorization()
        await assertSessionError(.stateMismatch) { try await harness.client.completeAuthorization(callbackURL: callback) }
        XCTAssertTrue(harness.provider.requests(to: .token).isEmpty)
    }

    func testAWrongStateLeavesThePendingRequestUsable() async throws {
        let harness = try makeLocalHarness()
        let request = try await harness.client.beginAuthorization()
        let callback = try await HeadlessUserAgent().authorize(url: request.url, redirectURI: request.redirectURI)
        var forged = URLComponents(url: callback, resolvingAgainstBaseURL: false)!
        forged.queryItems = [URLQueryItem(name: "code", value: "attacker"), URLQueryItem(name: "state", value: "attacker")]
        await assertSessionError(.stateMismatch) { try await harness.client.completeAuthorization(callbackURL: forged.url!) }
        let tokens = try await harness.client.completeAuthorization(callbackURL: callback)
        XCTAssertEqual(tokens.subject, LocalProvider.User.erika.subject)
    }

    func testAnErrorResponseKeepsTheProvidersWords() async throws {
        // The provider's own refusal, as the user declining sends it.
        let harness = try makeLocalHarness()
        harness.provider.scriptConsent(.deny)
        let denied = await assertSessionError(.accessDenied) { try await harness.signIn(.login) }
        XCTAssertEqual(denied?.oauthError, "access_denied")
        XCTAssertNotNil(denied?.oauthErrorDescription)

        let (_, result) = try await completeWith { url, sent in
            url.queryItems = [URLQueryItem(name: "error", value: "access_denied"),
                              URLQueryItem(name: "error_description", value: "The user said no"),
                              URLQueryItem(name: "state", value: sent["state"]),
                              URLQueryItem(name: "iss", value: url.queryItems?.first { $0.name == "iss" }?.value)]
        }
        XCTAssertThrowsError(try result.get()) { error in
            let error = error as? SessionError
            XCTAssertEqual(error?.code, .accessDenied)
            XCTAssertEqual(error?.oauthError, "access_denied")
            XCTAssertEqual(error?.oauthErrorDescription, "The user said no")
        }
        let (_, unknown) = try await completeWith { url, sent in
            url.queryItems = [URLQueryItem(name: "error", value: "vendor_specific"), URLQueryItem(name: "state", value: sent["state"]),
                              URLQueryItem(name: "iss", value: url.queryItems?.first { $0.name == "iss" }?.value)]
        }
        XCTAssertEqual((unknown.failure as? SessionError)?.code, .oauthError)
        XCTAssertEqual((unknown.failure as? SessionError)?.oauthError, "vendor_specific")
    }

    func testAMissingCodeIsRefused() async throws {
        try await assertRejected(.missingAuthorizationCode) { url, _ in url.queryItems?.removeAll { $0.name == "code" } }
    }

    /// LocalProvider declares RFC 9207's `iss` and sends it: another value is refused, and so is
    /// none at all.
    func testIssParameterMustMatchAndIsRequiredWhenDeclared() async throws {
        try await assertRejected(.authorizationIssuerMismatch, Self.replacing("iss", with: "https://evil.example"))
        try await assertRejected(.authorizationIssuerMissing) { url, _ in url.queryItems?.removeAll { $0.name == "iss" } }
        let (_, accepted) = try await completeWith { _, _ in }
        XCTAssertEqual(try accepted.get().subject, LocalProvider.User.erika.subject)
    }

    func testAnAgentThatCancelsGivesCancelledAndNoPendingRequest() async throws {
        struct Cancelling: AuthorizationAgent {
            func authorize(url: URL, redirectURI: URL) async throws -> URL {
                throw SessionError(.cancelled, process: .authentication, message: "user closed the browser")
            }
        }
        let client = try makeLocalHarness().client
        await assertSessionError(.cancelled, process: .authentication) { try await client.signIn(agent: Cancelling()) }
        let pending = await client.isRedirectForPendingAuthorization(client.configuration.redirectURI)
        XCTAssertFalse(pending)
    }

    func testAnAgentThatFailsIsAFailureNotACancellation() async throws {
        struct NoBrowser: Error {}
        struct Failing: AuthorizationAgent {
            func authorize(url: URL, redirectURI: URL) async throws -> URL { throw NoBrowser() }
        }
        let client = try makeLocalHarness().client
        do {
            _ = try await client.signIn(agent: Failing())
            XCTFail("the agent failed")
        } catch let error as SessionError {
            XCTAssertEqual(error.code, .authorizationAgentFailed)
            XCTAssertEqual(error.process, .authentication)
            XCTAssertTrue(error.message.contains("NoBrowser"), error.message)
        }
        let pending = await client.isRedirectForPendingAuthorization(client.configuration.redirectURI)
        XCTAssertFalse(pending)
    }

    func testPendingRedirectMatchingIgnoresQueryButNotTarget() async throws {
        let client = try makeLocalHarness().client
        let redirectURI = client.configuration.redirectURI
        var matches = await client.isRedirectForPendingAuthorization(redirectURI)
        XCTAssertFalse(matches)
        _ = try await client.beginAuthorization()
        matches = await client.isRedirectForPendingAuthorization(URL(string: redirectURI.absoluteString + "?code=x&state=y")!)
        XCTAssertTrue(matches)
        matches = await client.isRedirectForPendingAuthorization(URL(string: "com.example.sessiondemo:/elsewhere?code=x")!)
        XCTAssertFalse(matches)
        await client.cancelAuthorization()
        matches = await client.isRedirectForPendingAuthorization(redirectURI)
        XCTAssertFalse(matches)
    }
}

extension Result where Failure == Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }

    var failure: Error? { if case .failure(let error) = self { error } else { nil } }
}
