import ClientTestSupport
import Foundation
import SessionCore
import SessionTesting
import XCTest

/// No token, code, verifier, state or nonce value may appear in a log line or an error.
final class SecretRedactionTests: XCTestCase {
    func testNoSecretAppearsInLogsErrorsOrDescriptions() async throws {
        let harness = try makeLocalHarness()
        let logger = CapturingLogger()
        let client = SessionClient(configuration: harness.client.configuration, transport: CurlTransport(timeout: 5),
                                   clock: harness.clock, logger: logger)
        var texts: [String] = []

        let request = try await client.beginAuthorization(scopes: ["openid", "permission_management"])
        texts.append(request.description)
        let callback = try await HeadlessUserAgent().authorize(url: request.url, redirectURI: request.redirectURI)
        let tokens = try await client.completeAuthorization(callbackURL: callback)
        texts.append(tokens.description)
        texts.append("\(tokens)")
        // A replay, a refresh, a refused refresh and failing calls all produce errors and log lines.
        if let error = await assertSessionError(.stateMismatch, { try await client.completeAuthorization(callbackURL: callback) }) {
            texts.append(error.description)
        }
        _ = try await client.userInfo()
        _ = try await client.refresh()
        harness.provider.inject(.status(401, headers: ["WWW-Authenticate": "Bearer error=\"invalid_token\""]), at: .userInfo, times: 2)
        if let error = await assertSessionError(.invalidToken, { try await client.userInfo() }) { texts.append(error.description) }
        harness.provider.inject(.status(400, body: #"{"error":"invalid_grant"}"#), at: .token)
        if let error = await assertSessionError(.reauthenticationRequired, { try await client.refresh() }) { texts.append(error.description) }
        texts += logger.lines
        XCTAssertFalse(logger.lines.isEmpty)

        var secrets = Set<String>()
        let sent = try XCTUnwrap(harness.provider.requests(to: .authorization).last?.parameters)
        for key in ["state", "nonce", "code_challenge"] { secrets.insert(try XCTUnwrap(sent[key])) }
        for request in harness.provider.requests(to: .token) {
            for key in ["code", "code_verifier", "refresh_token"] { if let value = request.parameters[key] { secrets.insert(value) } }
        }
        secrets.insert(tokens.accessToken)
        if let idToken = tokens.idToken { secrets.insert(idToken) }
        XCTAssertGreaterThanOrEqual(secrets.count, 8)
        for text in texts {
            for secret in secrets { XCTAssertFalse(text.contains(secret), "a secret leaked into: \(text)") }
        }
    }

    func testRedactedURLKeepsParameterNamesOnly() async throws {
        let logger = CapturingLogger()
        let provider = try FakeProvider()
        provider.edit { $0.discovery["userinfo_endpoint"] = "https://op.example/userinfo?api_key=abc&x=%3Cy%3E#frag" }
        let client = try makeClient(provider, logger: logger)
        _ = try await client.signIn(agent: provider)
        _ = try? await client.userInfo()
        let line = try XCTUnwrap(logger.lines.first { $0.contains("UserInfo: GET") })
        XCTAssertTrue(line.contains("api_key=<redacted>&x=<redacted>#<redacted>"), line)
        XCTAssertFalse(line.contains("abc"), line)
    }
}
