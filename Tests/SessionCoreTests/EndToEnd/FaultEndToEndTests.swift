import ClientTestSupport
import Foundation
import SessionCore
import SessionPermissions
import SessionTesting
import XCTest

/// Each fault the LocalProvider can inject, at the step that meets it: the documented error
/// (see ErrorCodes.md), and the store as it was before.
final class FaultEndToEndTests: XCTestCase {
    typealias Fault = LocalProvider.Fault

    // MARK: During sign-in: nothing is stored

    func testFaultsDuringSignInLeaveNoSession() async throws {
        let cases: [(LocalProvider.Endpoint, Fault, SessionError.Code)] = [
            (.discovery, .status(503), .invalidDiscoveryDocument),
            (.discovery, .malformedBody, .invalidDiscoveryDocument),
            (.discovery, .dropConnection, .networkError),
            (.token, .status(400, body: #"{"error":"invalid_grant"}"#), .invalidGrant),
            (.token, .status(500), .serverError),
            (.token, .malformedBody, .invalidResponse),
            (.token, .dropConnection, .networkError),
            (.token, .delay(3), .timeout),
            (.jwks, .malformedBody, .invalidResponse),
            (.jwks, .status(404), .unexpectedResponse),
        ]
        for (endpoint, fault, code) in cases {
            let harness = try makeLocalHarness(transportTimeout: 1)
            harness.provider.inject(fault, at: endpoint)
            await assertSessionError(code) { try await harness.signIn() }
            XCTAssertNil(harness.stored, "\(fault) at \(endpoint)")
            XCTAssertEqual(harness.provider.requests(to: endpoint).first?.fault, fault, "the fault was met at \(endpoint)")
        }
    }

    // MARK: With a session: it stays as it was

    func testFaultsAtResourcesKeepTheSession() async throws {
        let cases: [(LocalProvider.Endpoint, Fault, SessionError.Code, SessionError.Process)] = [
            (.userInfo, .status(503), .serverError, .userInfo),
            (.userInfo, .malformedBody, .invalidResponse, .userInfo),
            (.userInfo, .dropConnection, .networkError, .userInfo),
            (.userInfo, .delay(3), .timeout, .userInfo),
            (.permissionRead, .status(500), .permissionRequestFailed, .permissionRead),
            (.permissionRead, .malformedBody, .invalidResponse, .permissionRead),
            (.permissionRead, .dropConnection, .networkError, .permissionRead),
            (.permissionWrite, .status(400, body: #"{"status_code":"TAPP_NOT_ALLOWED"}"#), .permissionRequestFailed, .permissionWrite),
            (.permissionWrite, .dropConnection, .networkError, .permissionWrite),
        ]
        for (endpoint, fault, code, process) in cases {
            let harness = try makeLocalHarness(transportTimeout: 1)
            let tokens = try await harness.signIn()
            // A GET over a kept-alive connection that drops unanswered is retried once on a new
            // one, so a provider that drops must drop every attempt.
            harness.provider.inject(fault, at: endpoint, times: fault == .dropConnection ? nil : 1)
            await assertSessionError(code, process: process) {
                switch endpoint {
                case .userInfo: _ = try await harness.client.userInfo()
                case .permissionRead: _ = try await harness.permissions().fetchPermissions()
                default: _ = try await harness.permissions().updatePermissions(PermissionUpdate(idConsent: .invalid))
                }
            }
            XCTAssertEqual(harness.stored, tokens, "\(fault) at \(endpoint)")
            let current = await harness.client.tokens
            XCTAssertEqual(current, tokens)
        }
    }

    func testAFailedRevocationKeepsTheSession() async throws {
        for fault in [Fault.status(503), .dropConnection, .status(400, body: #"{"error":"invalid_request"}"#)] {
            let harness = try makeLocalHarness(transportTimeout: 1)
            let tokens = try await harness.signIn()
            harness.provider.inject(fault, at: .revocation)
            await assertSessionError(fault == .dropConnection ? .networkError : fault == .status(503) ? .serverError : .invalidRequest,
                                     process: .endSession) {
                try await harness.client.signOut(revokeTokens: true)
            }
            XCTAssertEqual(harness.stored, tokens, "\(fault)")
            XCTAssertTrue(harness.provider.isActive(refreshToken: try XCTUnwrap(tokens.refreshToken)))
        }
    }

    func testARefreshThatNeverReachedAnAnswerKeepsTheSessionWhenTheProviderFailedVisibly() async throws {
        let harness = try makeLocalHarness(transportTimeout: 1)
        let tokens = try await harness.signIn()
        harness.clock.advance(by: 3600)
        harness.provider.inject(.status(503), at: .token)
        await assertSessionError(.serverError) { try await harness.client.userInfo() }
        XCTAssertEqual(harness.stored, tokens, "a 5xx means the provider did not rotate: the session is kept")
        // The provider recovers and the kept refresh token still works.
        _ = try await harness.client.userInfo()
        XCTAssertNotEqual(harness.stored?.refreshToken, tokens.refreshToken)
    }

    func testARefreshWithAnUnknownOutcomeEndsTheSession() async throws {
        // Documented exception: after a malformed answer or a broken connection the provider may
        // have rotated, so the old refresh token is not kept for a replay.
        for fault in [Fault.malformedBody, .dropConnection] {
            let harness = try makeLocalHarness(transportTimeout: 1)
            _ = try await harness.signIn()
            harness.clock.advance(by: 3600)
            harness.provider.inject(fault, at: .token)
            await assertSessionError(.reauthenticationRequired, process: .userInfo) { try await harness.client.userInfo() }
            XCTAssertNil(harness.stored, "\(fault)")
        }
    }
}
