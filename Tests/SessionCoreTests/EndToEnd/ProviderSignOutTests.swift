import ClientTestSupport
import Foundation
import SessionCore
import SessionLoopback
import SessionTesting
import XCTest

/// RP-initiated logout: revocation, then the local session, then the provider's sign-out page
/// with `id_token_hint`, `client_id`, `post_logout_redirect_uri` and a fresh `state`, whose
/// return must bring that `state` back. The session here ends whatever the browser step does.
final class ProviderSignOutTests: XCTestCase {
    /// An agent that answers with a fixed URL, or fails: a browser step gone wrong.
    private struct ScriptedAgent: AuthorizationAgent {
        let answer: @Sendable (URL) throws -> URL
        func authorize(url: URL, redirectURI: URL) async throws -> URL { try answer(url) }
    }

    func testTheProvidersSessionEndsAfterTheLocalOne() async throws {
        let harness = try makeLocalHarness()
        let tokens = try await harness.signIn(.login)
        try await harness.client.signOut(revokeTokens: true, endingProviderSessionWith: HeadlessUserAgent())
        XCTAssertNil(harness.stored)
        XCTAssertEqual(harness.provider.endedSessions, 1)
        XCTAssertEqual(harness.provider.requestLog.suffix(2).map(\.endpoint), [.revocation, .endSession], "revocation first")
        let request = try XCTUnwrap(harness.provider.requests(to: .endSession).last)
        XCTAssertEqual(request.parameters["id_token_hint"], tokens.idToken)
        XCTAssertEqual(request.parameters["client_id"], harness.client.configuration.clientID)
        XCTAssertEqual(request.parameters["post_logout_redirect_uri"], harness.client.configuration.redirectURI.absoluteString)
        XCTAssertEqual(request.parameters["state"]?.count, 43)
    }

    func testAProviderWithoutTheEndpointIsRefusedBeforeAnythingIsCleared() async throws {
        let harness = try makeLocalHarness()
        try await harness.serveDiscovery(without: ["end_session_endpoint"])
        _ = try await harness.signIn(.login)
        await assertSessionError(.unsupportedProviderFeature, process: .endSession) {
            try await harness.client.signOut(endingProviderSessionWith: HeadlessUserAgent())
        }
        XCTAssertTrue(harness.provider.requests(to: .endSession).isEmpty)
        let kept = await harness.client.tokens
        XCTAssertNotNil(kept, "nothing was signed out")
    }

    func testABrowserStepThatFailsOrComesBackWrongStillEndsTheSessionHere() async throws {
        let harness = try makeLocalHarness()
        let agents: [ScriptedAgent] = [
            ScriptedAgent { _ in throw SessionError.cancelled() },
            ScriptedAgent { url in
                // The provider's return, but with another sign-out's state.
                var components = try XCTUnwrap(URLComponents(url: url, resolvingAgainstBaseURL: false))
                let back = try XCTUnwrap(components.queryItems?.first { $0.name == "post_logout_redirect_uri" }?.value)
                components = try XCTUnwrap(URLComponents(string: back))
                components.queryItems = [URLQueryItem(name: "state", value: "someone-elses")]
                return try XCTUnwrap(components.url)
            },
        ]
        for agent in agents {
            _ = try await harness.signIn(.login)
            let error = await assertSessionError(.providerSignOutIncomplete, process: .endSession) {
                try await harness.client.signOut(endingProviderSessionWith: agent)
            }
            XCTAssertTrue(error?.message.contains("the provider's session may still be open") == true, error?.message ?? "")
            XCTAssertNil(harness.stored, "the session here ended anyway")
        }
    }

    /// LocalProvider, like a real provider, never sends the browser to an unregistered return
    /// URI: the client then reports the provider step as incomplete.
    func testAnUnregisteredReturnIsNotRedirectedTo() async throws {
        let harness = try makeLocalHarness()
        let configuration = try SessionConfiguration(issuer: harness.provider.issuer, clientID: harness.client.configuration.clientID,
                                                     redirectURI: harness.client.configuration.redirectURI,
                                                     postLogoutRedirectURI: URL(string: "com.example.elsewhere:/signed-out")!)
        let client = SessionClient(configuration: configuration, store: harness.store, transport: CurlTransport(timeout: 5), clock: harness.clock)
        _ = try await client.signIn(agent: HeadlessUserAgent())
        await assertSessionError(.providerSignOutIncomplete) { try await client.signOut(endingProviderSessionWith: HeadlessUserAgent()) }
        XCTAssertEqual(harness.provider.endedSessions, 0)
    }
}
