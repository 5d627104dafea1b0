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
        let (request, binding) = try await first.beginAuthorization(keepingIn: .store(store)).parts
        let callback = try await HeadlessUserAgent().authorize(url: request.url, redirectURI: request.redirectURI)
        let tokens = try await second.completeAuthorization(callbackURL: callback, keptIn: .store(store), cookie: binding)
        XCTAssertEqual(tokens.subject, LocalProvider.User.erika.subject)
        XCTAssertEqual(local.requests(to: .token).last?.parameters["code_verifier"], request.codeVerifier)
        let leftPending = await first.isRedirectForPendingAuthorization(callback)
        XCTAssertFalse(leftPending, "nothing was left pending on the first server")
        // Single use: the same callback again finds nothing, on either server.
        await assertSessionError(.stateMismatch, process: .authentication) {
            _ = try await first.completeAuthorization(callbackURL: callback, keptIn: .store(store), cookie: binding)
        }
    }

    /// Login CSRF: max begins a sign-in, signs in as himself and hands the callback to erika's
    /// browser, which never began one. Without max's binding it finishes nothing and consumes
    /// nothing; only the browser that began it can finish it.
    func testACallbackFromABrowserThatDidNotBeginTheSignInFinishesNothingAndBurnsNothing() async throws {
        let (local, attackersServer, victimsServer) = try servers()
        let store = InMemoryPendingAuthorizationStore()
        let (request, attackersBinding) = try await attackersServer.beginAuthorization(keepingIn: .store(store)).parts
        let callback = try await HeadlessUserAgent().authorize(url: request.url, redirectURI: request.redirectURI)
        // The victim's browser: no binding cookie at all, or the one of a sign-in it began itself.
        let (_, victimsOwnBinding) = try await victimsServer.beginAuthorization(keepingIn: .store(store)).parts
        for binding in [nil, victimsOwnBinding, String(repeating: "A", count: 43), ""] {
            let refused = await assertSessionError(.stateMismatch, process: .authentication) {
                _ = try await victimsServer.completeAuthorization(callbackURL: callback, keptIn: .store(store), cookie: binding)
            }
            XCTAssertTrue(refused?.message.contains("left for") == true, refused?.message ?? "")
        }
        let victimSignedIn = await victimsServer.tokens
        XCTAssertNil(victimSignedIn, "the victim's browser is not signed in as the attacker")
        XCTAssertEqual(local.requests(to: .token).count, 0, "no code was exchanged")
        // The row was left for the browser that began it.
        let tokens = try await attackersServer.completeAuthorization(callbackURL: callback, keptIn: .store(store), cookie: attackersBinding)
        XCTAssertEqual(tokens.subject, LocalProvider.User.erika.subject)
    }

    func testAnUnknownStateAnExpiredOneOrAnotherClientsIsAStateMismatch() async throws {
        let clock = ManualClock()
        let (local, first, second) = try servers(clock: clock)
        let store = InMemoryPendingAuthorizationStore()
        let (request, binding) = try await first.beginAuthorization(keepingIn: .store(store), lifetime: 60).parts
        let callback = try await HeadlessUserAgent().authorize(url: request.url, redirectURI: request.redirectURI)
        var forged = URLComponents(url: callback, resolvingAgainstBaseURL: false)!
        forged.queryItems = forged.queryItems?.map { $0.name == "state" ? URLQueryItem(name: "state", value: "forged") : $0 }
        await assertSessionError(.stateMismatch) { _ = try await second.completeAuthorization(callbackURL: forged.url!, keptIn: .store(store), cookie: binding) }
        var twice = URLComponents(url: callback, resolvingAgainstBaseURL: false)!
        twice.queryItems = (twice.queryItems ?? []) + [URLQueryItem(name: "state", value: request.state)]
        await assertSessionError(.stateMismatch) { _ = try await second.completeAuthorization(callbackURL: twice.url!, keptIn: .store(store), cookie: binding) }

        clock.advance(by: 61)
        await assertSessionError(.stateMismatch) { _ = try await second.completeAuthorization(callbackURL: callback, keptIn: .store(store), cookie: binding) }

        // Kept by a client of another redirect URI, finished by this one: refused.
        let other = SessionClient(provider: OpenIDProvider(configuration: try local.configuration(redirectURI: URL(string: "http://127.0.0.1:9/other")!),
                                                           transport: CurlTransport(timeout: 5), clock: clock))
        let (elsewhere, elsewhereBinding) = try await other.beginAuthorization(keepingIn: .store(store)).parts
        let otherCallback = URL(string: "\(request.redirectURI.absoluteString)?code=x&state=\(elsewhere.state)&iss=\(local.issuer.absoluteString)")!
        await assertSessionError(.stateMismatch) {
            _ = try await second.completeAuthorization(callbackURL: otherCallback, keptIn: .store(store), cookie: elsewhereBinding)
        }
        await assertSessionError(.invalidConfiguration) { _ = try await first.beginAuthorization(keepingIn: .store(store), lifetime: 0) }
    }
}
