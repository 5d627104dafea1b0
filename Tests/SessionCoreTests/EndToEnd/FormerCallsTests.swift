import Foundation
import SessionCore
import SessionTesting
import XCTest
import ClientTestSupport

/// The calls renamed since: the ones named after each place a pending sign-in waits (one pair now takes the
/// place as an argument) and `restoreSession()`, deprecated and still working. They are reached through a protocol they
/// satisfy, as code built before the change calls them, so this file compiles without a warning.
private protocol FormerSessionClientCalls: Actor {
    func beginAuthorization(scopes: [String]?, sealingWith key: AuthorizationSealingKey, lifetime: TimeInterval) async throws
        -> (request: AuthorizationRequest, pending: SealedAuthorization)
    func completeAuthorization(callbackURL: URL, pending: SealedAuthorization, key: AuthorizationSealingKey,
                               finishedIn shared: PendingAuthorizationStore?) async throws -> SessionTokens
    func beginAuthorization(scopes: [String]?, keepingPendingIn store: PendingAuthorizationStore, lifetime: TimeInterval) async throws
        -> (request: AuthorizationRequest, binding: BrowserBinding)
    func completeAuthorization(callbackURL: URL, pendingIn store: PendingAuthorizationStore, binding: BrowserBinding?) async throws -> SessionTokens
    func restoreSession() async throws -> SessionTokens?
}

extension SessionClient: FormerSessionClientCalls {}

final class FormerCallsTests: XCTestCase {
    private var provider: LocalProvider!

    override func setUpWithError() throws {
        provider = try LocalProvider(clock: SystemClock())
    }

    override func tearDown() {
        provider.stop()
    }

    private func server() throws -> any FormerSessionClientCalls {
        SessionClient(provider: OpenIDProvider(configuration: try provider.configuration(), transport: CurlTransport(timeout: 5)))
    }

    func testASealedSignInBegunAndFinishedWithTheFormerCallsSignsIn() async throws {
        let key = try AuthorizationSealingKey.generate()
        let (request, pending) = try await server().beginAuthorization(scopes: nil, sealingWith: key, lifetime: 600)
        let callback = try await HeadlessUserAgent().authorize(url: request.url, redirectURI: request.redirectURI)
        let tokens = try await server().completeAuthorization(callbackURL: callback, pending: pending, key: key, finishedIn: nil)
        XCTAssertEqual(tokens.subject, "erika")
    }

    func testAStoredSignInBegunAndFinishedWithTheFormerCallsSignsInForItsBrowserOnly() async throws {
        let store = InMemoryPendingAuthorizationStore()
        let (request, binding) = try await server().beginAuthorization(scopes: nil, keepingPendingIn: store, lifetime: 600)
        let callback = try await HeadlessUserAgent().authorize(url: request.url, redirectURI: request.redirectURI)
        await assertSessionError(.stateMismatch) { _ = try await self.server().completeAuthorization(callbackURL: callback, pendingIn: store, binding: nil) }
        let tokens = try await server().completeAuthorization(callbackURL: callback, pendingIn: store, binding: binding)
        XCTAssertEqual(tokens.subject, "erika")
    }

    func testTheFormerRestoreLoadsTheStoredSession() async throws {
        let store = InMemoryTokenStore()
        let client = SessionClient(provider: OpenIDProvider(configuration: try provider.configuration(), transport: CurlTransport(timeout: 5)), store: store)
        let signedIn = try await client.signIn(agent: HeadlessUserAgent())
        let later = SessionClient(provider: OpenIDProvider(configuration: try provider.configuration(), transport: CurlTransport(timeout: 5)), store: store)
        let restored = try await (later as any FormerSessionClientCalls).restoreSession()
        XCTAssertEqual(restored?.accessToken, signedIn.accessToken)
    }
}
