import ClientTestSupport
import Foundation
import SessionCore
import SessionTesting
import XCTest

final class SignOutTests: XCTestCase {
    func testLocalSignOutClearsMemoryAndStoreWithoutCallingTheProvider() async throws {
        let provider = try FakeProvider()
        let store = RecordingStore()
        let client = try makeClient(provider, store: store)
        _ = try await client.signIn(agent: provider)
        let before = provider.log.count
        try await client.signOut()
        XCTAssertNil(store.contents)
        let tokens = await client.tokens
        XCTAssertNil(tokens)
        XCTAssertEqual(provider.log.count, before)
    }

    func testRevocationSendsTheRefreshTokenThenClears() async throws {
        let provider = try FakeProvider()
        let store = RecordingStore()
        let client = try makeClient(provider, store: store)
        let tokens = try await client.signIn(agent: provider)
        try await client.signOut(revokeTokens: true)
        let request = try XCTUnwrap(provider.requests(to: "/revoke").first)
        XCTAssertFalse(request.followsRedirects)
        XCTAssertEqual(FakeProvider.form(request), ["token": tokens.refreshToken!, "token_type_hint": "refresh_token",
                                                    "client_id": FakeProvider.clientID])
        XCTAssertNil(store.contents)
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
        let provider = try FakeProvider()
        let store = RecordingStore()
        let client = try makeClient(provider, store: store)
        let tokens = try await client.signIn(agent: provider)
        provider.edit { $0.handlers["/revoke"] = { _ in FakeProvider.json(["error": "server_error"], status: 500) } }
        let error = await assertSessionError(.serverError, process: .endSession) { try await client.signOut(revokeTokens: true) }
        XCTAssertEqual(error?.oauthError, "server_error")
        XCTAssertEqual(store.contents, tokens)
        let current = await client.tokens
        XCTAssertEqual(current, tokens)
    }

    func testRevocationWithoutAnEndpointIsRefusedAndKeepsState() async throws {
        let provider = try FakeProvider()
        provider.edit { $0.discovery["revocation_endpoint"] = nil }
        let store = RecordingStore()
        let client = try makeClient(provider, store: store)
        _ = try await client.signIn(agent: provider)
        await assertSessionError(.unsupportedProviderFeature, process: .endSession) { try await client.signOut(revokeTokens: true) }
        XCTAssertNotNil(store.contents)
    }

    func testSignOutForgetsAPendingAuthorization() async throws {
        let provider = try FakeProvider()
        let client = try makeClient(provider)
        let request = try await client.beginAuthorization()
        let callback = try await provider.authorize(url: request.url, redirectURI: request.redirectURI)
        try await client.signOut()
        await assertSessionError(.stateMismatch) { try await client.completeAuthorization(callbackURL: callback) }
    }
}
