import ClientTestSupport
import Foundation
import SessionCore
import SessionTesting
import XCTest

final class SignOutTests: XCTestCase {
    func testLocalSignOutClearsMemoryAndStoreWithoutCallingTheProvider() async throws {
        let harness = try makeLocalHarness()
        let tokens = try await harness.signIn(.login)
        let before = harness.provider.requestLog.count
        try await harness.client.signOut()
        XCTAssertNil(harness.stored)
        let current = await harness.client.tokens
        XCTAssertNil(current)
        XCTAssertEqual(harness.provider.requestLog.count, before)
        XCTAssertTrue(harness.provider.isActive(refreshToken: try XCTUnwrap(tokens.refreshToken)), "nothing was revoked")
    }

    func testRevocationSendsTheRefreshTokenThenClears() async throws {
        let harness = try makeLocalHarness()
        let tokens = try await harness.signIn(.login)
        try await harness.client.signOut(revokeTokens: true)
        let request = try XCTUnwrap(harness.provider.requests(to: .revocation).first)
        XCTAssertEqual(request.parameters, ["token": try XCTUnwrap(tokens.refreshToken), "token_type_hint": "refresh_token",
                                            "client_id": harness.client.configuration.clientID])
        XCTAssertFalse(harness.provider.isActive(refreshToken: try XCTUnwrap(tokens.refreshToken)))
        XCTAssertNil(harness.stored)
    }

    func testARedirectedRevocationIsNotFollowedAndKeepsTheSession() async throws {
        let harness = try makeLocalHarness()
        let tokens = try await harness.signIn(.login)
        harness.provider.inject(.status(307, headers: ["Location": harness.provider.url(of: .revocation).absoluteString]), at: .revocation)
        await assertSessionError(.unexpectedResponse, process: .endSession) { try await harness.client.signOut(revokeTokens: true) }
        XCTAssertEqual(harness.provider.requests(to: .revocation).count, 1, "the token is not sent on to wherever the answer points")
        XCTAssertEqual(harness.stored, tokens)
    }

    func testANewProcessSigningOutRevokesTheStoredSession() async throws {
        // The command-line recipe: `logout` is a new process whose client never loaded the session.
        let harness = try makeLocalHarness()
        let tokens = try await harness.signIn(.login)
        let logger = CapturingLogger()
        let logout = SessionClient(configuration: try harness.provider.configuration(), store: harness.store,
                                   transport: CurlTransport(timeout: 5), clock: harness.clock, logger: logger)
        try await logout.signOut(revokeTokens: true)
        XCTAssertEqual(harness.provider.requests(to: .revocation).count, 1, "the stored session's refresh token was revoked")
        XCTAssertFalse(harness.provider.isActive(refreshToken: try XCTUnwrap(tokens.refreshToken)))
        XCTAssertNil(harness.stored)
        XCTAssertTrue(logger.lines.contains { $0.contains("signed out (tokens revoked)") }, "\(logger.lines)")

        // With nothing stored, nothing is revoked, and the log does not say otherwise.
        try await logout.signOut(revokeTokens: true)
        XCTAssertEqual(harness.provider.requests(to: .revocation).count, 1)
        XCTAssertTrue(logger.lines.contains { $0.contains("there was no session to revoke") }, "\(logger.lines)")
    }

    func testAnUnreadableStoreDoesNotKeepTheUserFromSigningOut() async throws {
        let harness = try makeLocalHarness()
        let tokens = try await harness.signIn(.login)
        harness.store.failsLoads = true
        try await harness.client.signOut(revokeTokens: true)
        XCTAssertFalse(harness.provider.isActive(refreshToken: try XCTUnwrap(tokens.refreshToken)), "the session in memory was revoked")
        harness.store.failsLoads = false
        XCTAssertNil(harness.stored)
    }

    func testAFailedRevocationKeepsLocalStateAndReportsTheError() async throws {
        let harness = try makeLocalHarness()
        let tokens = try await harness.signIn(.login)
        harness.provider.inject(.status(500, body: #"{"error":"server_error"}"#), at: .revocation)
        let error = await assertSessionError(.serverError, process: .endSession) { try await harness.client.signOut(revokeTokens: true) }
        XCTAssertEqual(error?.oauthError, "server_error")
        XCTAssertEqual(harness.stored, tokens)
        let current = await harness.client.tokens
        XCTAssertEqual(current, tokens)
    }

    func testRevocationWithoutAnEndpointIsRefusedAndKeepsState() async throws {
        let harness = try makeLocalHarness()
        try await harness.serveDiscovery(without: ["revocation_endpoint"])
        _ = try await harness.signIn(.login)
        await assertSessionError(.unsupportedProviderFeature, process: .endSession) { try await harness.client.signOut(revokeTokens: true) }
        XCTAssertNotNil(harness.stored)
    }

    func testSignOutForgetsAPendingAuthorization() async throws {
        let harness = try makeLocalHarness()
        let request = try await harness.client.beginAuthorization()
        let callback = try await HeadlessUserAgent().authorize(url: request.url, redirectURI: request.redirectURI)
        try await harness.client.signOut()
        await assertSessionError(.stateMismatch) { try await harness.client.completeAuthorization(callbackURL: callback) }
    }
}
