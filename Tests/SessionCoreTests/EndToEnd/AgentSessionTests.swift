import ClientTestSupport
import Foundation
import SessionCore
import SessionTesting
import XCTest

/// The two steps of an agent as the client drives them: the request is built for the redirect
/// URI the agent prepared, and the agent hears once, before the code is exchanged, what the
/// client made of the redirect.
final class AgentSessionTests: XCTestCase {
    /// An agent that plays the browser headlessly at the redirect URI it is told to name, and
    /// records every step the client takes with it.
    private final class RecordingAgent: AuthorizationAgent, Sendable {
        struct Finish: Sendable {
            let outcome: AgentOutcome
            /// Token requests the provider had seen when the session was finished.
            let tokenRequests: Int
        }

        let provider: LocalProvider
        let redirectURI: @Sendable (URL) -> URL
        let presentation: @Sendable (URL, URL) async throws -> URL
        let steps = Locked<(prepared: [AgentPurpose], presented: [URL], finished: [Finish])>(([], [], []))

        init(provider: LocalProvider, redirectURI: @escaping @Sendable (URL) -> URL = { $0 },
             presentation: @escaping @Sendable (URL, URL) async throws -> URL = { try await HeadlessUserAgent().authorize(url: $0, redirectURI: $1) }) {
            self.provider = provider
            self.redirectURI = redirectURI
            self.presentation = presentation
        }

        func authorize(url: URL, redirectURI: URL) async throws -> URL {
            XCTFail("the client prepares a two-step agent")
            throw SessionError.cancelled()
        }

        func prepare(configuredRedirectURI: URL, purpose: AgentPurpose) async throws -> any AgentSession {
            steps.withLock { $0.prepared.append(purpose) }
            return Session(agent: self, redirectURI: redirectURI(configuredRedirectURI))
        }

        struct Session: AgentSession {
            let agent: RecordingAgent
            let redirectURI: URL

            func present(_ url: URL) async throws -> URL {
                agent.steps.withLock { $0.presented.append(url) }
                return try await agent.presentation(url, redirectURI)
            }

            func finish(_ outcome: AgentOutcome) async {
                let seen = agent.provider.requests(to: .token).count
                agent.steps.withLock { $0.finished.append(Finish(outcome: outcome, tokenRequests: seen)) }
            }
        }
    }

    private static let anyPort = URL(string: "http://127.0.0.1/callback")!

    func testTheRequestIsBuiltForThePreparedURIAndTheAgentHearsItWasAcceptedBeforeTheExchange() async throws {
        let harness = try makeLocalHarness(redirectURI: Self.anyPort)
        let chosen = URL(string: "http://127.0.0.1:61234/callback")!
        let agent = RecordingAgent(provider: harness.provider, redirectURI: { _ in chosen })
        _ = try await harness.client.signIn(agent: agent)
        let steps = agent.steps.value
        XCTAssertEqual(steps.prepared, [.signIn])
        XCTAssertEqual(steps.presented.count, 1)
        let sent = URLComponents(url: try XCTUnwrap(steps.presented.first), resolvingAgainstBaseURL: false)?.queryItems?
            .first { $0.name == "redirect_uri" }?.value
        XCTAssertEqual(sent, chosen.absoluteString)
        XCTAssertEqual(harness.provider.requests(to: .token).last?.parameters["redirect_uri"], chosen.absoluteString)
        XCTAssertEqual(steps.finished.count, 1)
        guard case .accepted = steps.finished.first?.outcome else { return XCTFail("\(steps.finished)") }
        XCTAssertEqual(steps.finished.first?.tokenRequests, 0, "told before the code is exchanged")
    }

    func testADeclinedSignInIsReportedAsRefusedWithTheProvidersError() async throws {
        let harness = try makeLocalHarness()
        harness.provider.scriptConsent(.deny)
        let agent = RecordingAgent(provider: harness.provider)
        await assertThrows(.accessDenied) { _ = try await harness.client.signIn(agent: agent) }
        let finished = agent.steps.value.finished
        XCTAssertEqual(finished.count, 1)
        guard case .refused(let error) = finished.first?.outcome else { return XCTFail("\(finished)") }
        XCTAssertEqual(error.code, .accessDenied)
    }

    func testARedirectURIOtherThanTheConfiguredOneIsNeverPresented() async throws {
        let harness = try makeLocalHarness()
        let agent = RecordingAgent(provider: harness.provider, redirectURI: { _ in URL(string: "https://elsewhere.example/callback")! })
        await assertThrows(.invalidConfiguration) { _ = try await harness.client.signIn(agent: agent) }
        let steps = agent.steps.value
        XCTAssertTrue(steps.presented.isEmpty)
        XCTAssertEqual(steps.finished.count, 1)
        guard case .abandoned = steps.finished.first?.outcome else { return XCTFail("\(steps.finished)") }
        XCTAssertTrue(harness.provider.requests(to: .authorization).isEmpty)
    }

    func testAPresentationThatFailsIsFinishedAsAbandonedAndLeavesNothingPending() async throws {
        let harness = try makeLocalHarness()
        let agent = RecordingAgent(provider: harness.provider, presentation: { _, _ in throw SessionError.cancelled() })
        await assertThrows(.cancelled) { _ = try await harness.client.signIn(agent: agent) }
        guard case .abandoned = agent.steps.value.finished.first?.outcome else { return XCTFail("\(agent.steps.value.finished)") }
        XCTAssertEqual(agent.steps.value.finished.count, 1)
        let isPending = await harness.client.isRedirectForPendingAuthorization(harness.client.configuration.redirectURI)
        XCTAssertFalse(isPending)
    }

    func testASignOutAtTheProviderIsPreparedForSigningOutAndFinishedAccepted() async throws {
        let harness = try makeLocalHarness()
        _ = try await harness.signIn(.login)
        let agent = RecordingAgent(provider: harness.provider)
        try await harness.client.signOut(endingProviderSessionWith: agent)
        let steps = agent.steps.value
        XCTAssertEqual(steps.prepared, [.signOut])
        XCTAssertEqual(steps.finished.count, 1)
        guard case .accepted = steps.finished.first?.outcome else { return XCTFail("\(steps.finished)") }
    }

    private func assertThrows(_ code: SessionError.Code, file: StaticString = #filePath, line: UInt = #line,
                              _ body: () async throws -> Void) async {
        do {
            try await body()
            XCTFail("expected \(code.rawValue)", file: file, line: line)
        } catch {
            XCTAssertEqual((error as? SessionError)?.code, code, "\(error)", file: file, line: line)
        }
    }
}
