import ClientTestSupport
import Foundation
import SessionCore
import SessionPermissions
import SessionTesting
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A resource server refusing an access token the client still thinks fresh (revoked by an
/// administrator, or clocks that disagree): the client refreshes once and sends the request once
/// more, never in a loop, never for a request that must not be sent twice.
final class RefusedTokenTests: XCTestCase {
    func testARevokedAccessTokenIsRefreshedAndTheRequestSentOnceMore() async throws {
        let harness = try makeLocalHarness()
        let tokens = try await harness.signIn(.login)
        harness.provider.revoke(accessToken: tokens.accessToken)
        let info = try await harness.client.userInfo()
        XCTAssertEqual(info.sub, LocalProvider.User.erika.subject)
        XCTAssertEqual(harness.provider.requests(to: .userInfo).count, 2)
        XCTAssertEqual(harness.provider.requests(to: .token).count, 2, "the code exchange, then one refresh")
        XCTAssertNotEqual(harness.stored?.accessToken, tokens.accessToken, "the refreshed tokens were stored")
    }

    func testATokenRefusedAgainAfterTheRefreshIsTheCallersError() async throws {
        let harness = try makeLocalHarness()
        _ = try await harness.signIn(.login)
        let refusal = LocalProvider.Fault.status(401, body: "", headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#])
        harness.provider.inject(refusal, at: .userInfo, times: nil)
        let error = await assertSessionError(.invalidToken, process: .userInfo) { try await harness.client.userInfo() }
        XCTAssertEqual(error?.httpStatus, 401)
        XCTAssertEqual(harness.provider.requests(to: .userInfo).count, 2, "sent twice, never more")
        XCTAssertEqual(harness.provider.requests(to: .token).count, 2, "one refresh")
    }

    func testOtherRefusalsAndRequestsThatMayNotBeRepeatedAreNotRetried() async throws {
        let harness = try makeLocalHarness()
        _ = try await harness.signIn(.login)
        harness.provider.inject(.status(401, body: "", headers: ["WWW-Authenticate": #"Bearer error="insufficient_scope""#]), at: .userInfo)
        await assertSessionError(.insufficientScope) { try await harness.client.userInfo() }
        harness.provider.inject(.status(403, body: "", headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#]), at: .userInfo)
        _ = try? await harness.client.userInfo()
        XCTAssertEqual(harness.provider.requests(to: .userInfo).count, 2)

        let tokens = try await harness.client.validTokens()
        harness.provider.revoke(accessToken: tokens.accessToken)
        let post = HTTPRequest(method: "POST", url: harness.provider.url(of: .userInfo), body: Data("a=1".utf8))
        let (response, _) = try await harness.client.sendAuthorized(post, process: .userInfo, purpose: "a POST")
        XCTAssertEqual(response.status, 401, "a POST is not sent twice")
        XCTAssertEqual(harness.provider.requests(to: .token).count, 1, "and nothing was refreshed for it")
    }

    func testWithoutARefreshTokenTheRefusalIsReturned() async throws {
        let harness = try makeLocalHarness()
        let tokens = try await harness.signIn(.login)
        try await harness.client.setTokens(SessionTokens(accessToken: tokens.accessToken, refreshToken: nil, idToken: tokens.idToken,
                                                         expiresAt: tokens.expiresAt, scopes: tokens.scopes, subject: tokens.subject))
        harness.provider.revoke(accessToken: tokens.accessToken)
        await assertSessionError(.invalidToken) { try await harness.client.userInfo() }
        XCTAssertEqual(harness.provider.requests(to: .userInfo).count, 1)
    }

    func testConcurrentCallsRefusedWithTheSameTokenShareOneRefresh() async throws {
        let harness = try makeLocalHarness()
        let tokens = try await harness.signIn(.login)
        harness.provider.revoke(accessToken: tokens.accessToken)
        let client = harness.client
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { _ = try await client.userInfo() } }
            try await group.waitForAll()
        }
        XCTAssertEqual(harness.provider.requests(to: .token).count, 2, "the code exchange and one shared refresh")
        XCTAssertEqual(harness.provider.refreshTokenReuses, 0)
    }

    func testAuthorizeGivesAnAppsOwnRequestAFreshBearerToken() async throws {
        let harness = try makeLocalHarness()
        let tokens = try await harness.signIn(.login)
        var request = URLRequest(url: harness.provider.url(of: .userInfo))
        request.setValue("Basic stale", forHTTPHeaderField: "authorization")
        let authorized = try await harness.client.authorize(request)
        XCTAssertEqual(authorized.value(forHTTPHeaderField: "Authorization"), "Bearer \(tokens.accessToken)")
        XCTAssertEqual(authorized.allHTTPHeaderFields?.count, 1, "the earlier Authorization is gone")

        harness.clock.advance(by: 3600)
        let later = try await harness.client.authorize(request)
        XCTAssertNotEqual(later.value(forHTTPHeaderField: "Authorization"), "Bearer \(tokens.accessToken)", "refreshed when due")
        XCTAssertEqual(harness.provider.requests(to: .token).count, 2)
    }
}
