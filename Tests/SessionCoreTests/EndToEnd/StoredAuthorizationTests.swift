@testable import SessionCore
import ClientTestSupport
import Foundation
import SessionTesting
import XCTest

/// A sign-in begun on one server and finished on another, its pending part kept in a store both
/// share (``PendingAuthorizationStore``) rather than sealed in a cookie.
final class StoredAuthorizationTests: XCTestCase {
    private func servers(clock: ManualClock = ManualClock()) throws -> (LocalProvider, SessionClient, SessionClient) {
        let local = try LocalProvider(clock: clock)
        addTeardownBlock { local.stop() }
        let configuration = try local.configuration()
        func server() -> SessionClient {
            SessionClient(provider: OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 5), clock: clock))
        }
        return (local, server(), server())
    }

    func testBegunOnOneServerFinishedOnAnotherOnce() async throws {
        let (local, first, second) = try servers()
        let store = InMemoryPendingAuthorizationStore()
        let request = try await first.beginAuthorization(keepingPendingIn: store)
        let callback = try await HeadlessUserAgent().authorize(url: request.url, redirectURI: request.redirectURI)
        let tokens = try await second.completeAuthorization(callbackURL: callback, pendingIn: store)
        XCTAssertEqual(tokens.subject, LocalProvider.User.erika.subject)
        XCTAssertEqual(local.requests(to: .token).last?.parameters["code_verifier"], request.codeVerifier)
        let leftPending = await first.isRedirectForPendingAuthorization(callback)
        XCTAssertFalse(leftPending, "nothing was left pending on the first server")
        // Single use: the same callback again finds nothing, on either server.
        await assertSessionError(.stateMismatch, process: .authentication) { _ = try await first.completeAuthorization(callbackURL: callback, pendingIn: store) }
    }

    func testAnUnknownStateAnExpiredOneOrAnotherClientsIsAStateMismatch() async throws {
        let clock = ManualClock()
        let (local, first, second) = try servers(clock: clock)
        let store = InMemoryPendingAuthorizationStore()
        let request = try await first.beginAuthorization(keepingPendingIn: store, lifetime: 60)
        let callback = try await HeadlessUserAgent().authorize(url: request.url, redirectURI: request.redirectURI)
        var forged = URLComponents(url: callback, resolvingAgainstBaseURL: false)!
        forged.queryItems = forged.queryItems?.map { $0.name == "state" ? URLQueryItem(name: "state", value: "forged") : $0 }
        await assertSessionError(.stateMismatch) { _ = try await second.completeAuthorization(callbackURL: forged.url!, pendingIn: store) }
        var twice = URLComponents(url: callback, resolvingAgainstBaseURL: false)!
        twice.queryItems = (twice.queryItems ?? []) + [URLQueryItem(name: "state", value: request.state)]
        await assertSessionError(.stateMismatch) { _ = try await second.completeAuthorization(callbackURL: twice.url!, pendingIn: store) }

        clock.advance(by: 61)
        await assertSessionError(.stateMismatch) { _ = try await second.completeAuthorization(callbackURL: callback, pendingIn: store) }

        // Kept by a client of another redirect URI, finished by this one: refused.
        let other = SessionClient(provider: OpenIDProvider(configuration: try local.configuration(redirectURI: URL(string: "http://127.0.0.1:9/other")!),
                                                           transport: CurlTransport(timeout: 5), clock: clock))
        let elsewhere = try await other.beginAuthorization(keepingPendingIn: store)
        let otherCallback = URL(string: "\(request.redirectURI.absoluteString)?code=x&state=\(elsewhere.state)&iss=\(local.issuer.absoluteString)")!
        await assertSessionError(.stateMismatch) { _ = try await second.completeAuthorization(callbackURL: otherCallback, pendingIn: store) }
        await assertSessionError(.invalidConfiguration) { _ = try await first.beginAuthorization(keepingPendingIn: store, lifetime: 0) }
    }
}
