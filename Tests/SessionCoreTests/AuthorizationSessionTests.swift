import ClientTestSupport
import Foundation
import SessionCore
import SessionTesting
import XCTest

/// The one handle on a sign-in: its outcome after cancel and end, and the wait for a redirect
/// the app hands back.
final class AuthorizationSessionTests: XCTestCase {
    private let redirectURI = URL(string: "com.example.app:/oauth/callback")!
    private var response: URL { URL(string: "com.example.app:/oauth/callback?code=c&state=s")! }

    /// An agent that lets the test play the app: it shows nothing and waits in the session.
    private struct AppShownAgent: AuthorizationAgent {
        let session: AuthorizationSession
        let shown: AsyncStream<URL>.Continuation
        func authorize(url: URL, redirectURI: URL) async throws -> URL {
            try await session.waitForRedirect(to: redirectURI) { shown.yield(url) }
        }
    }

    private func assertFails(_ code: SessionError.Code, _ result: Result<SessionTokens, SessionError>,
                             file: StaticString = #filePath, line: UInt = #line) {
        guard case .failure(let error) = result else { return XCTFail("the sign-in succeeded", file: file, line: line) }
        XCTAssertEqual(error.code, code, file: file, line: line)
    }

    func testTheRedirectTheAppHandsBackIsReturnedOnce() async throws {
        let session = AuthorizationSession()
        let (shown, sink) = AsyncStream.makeStream(of: Void.self)
        let wait = Task { [redirectURI] in try await session.waitForRedirect(to: redirectURI) { sink.yield() } }
        var iterator = shown.makeAsyncIterator()
        _ = await iterator.next()
        XCTAssertFalse(session.resume(with: URL(string: "com.example.app:/elsewhere?code=c")!), "another target is not the redirect")
        XCTAssertTrue(session.resume(with: response))
        XCTAssertFalse(session.resume(with: response), "a second resume changes nothing")
        let returned = try await wait.value
        XCTAssertEqual(returned, response)
    }

    func testTheAppMayResumeFromInsidePresent() async throws {
        let session = AuthorizationSession()
        let response = self.response
        let returned = try await session.waitForRedirect(to: redirectURI) { XCTAssertTrue(session.resume(with: response)) }
        XCTAssertEqual(returned, response)
    }

    func testTaskCancellationAPresentErrorAndANewerWaitEachEndTheWait() async throws {
        let session = AuthorizationSession()
        let redirectURI = self.redirectURI
        func assertEnds(_ code: SessionError.Code, _ wait: Task<URL, Error>, file: StaticString = #filePath, line: UInt = #line) async {
            do {
                _ = try await wait.value
                XCTFail("the wait ended with a redirect", file: file, line: line)
            } catch {
                XCTAssertEqual((error as? SessionError)?.code, code, file: file, line: line)
            }
        }
        let (shown, sink) = AsyncStream.makeStream(of: Void.self)
        var iterator = shown.makeAsyncIterator()

        let taskCancelled = Task { try await session.waitForRedirect(to: redirectURI) { sink.yield() } }
        _ = await iterator.next()
        taskCancelled.cancel()
        await assertEnds(.cancelled, taskCancelled)

        let refused = Task {
            try await session.waitForRedirect(to: redirectURI) { throw SessionError(.invalidConfiguration, process: .authentication, message: "no handler") }
        }
        await assertEnds(.invalidConfiguration, refused)

        let older = Task { try await session.waitForRedirect(to: redirectURI) { sink.yield() } }
        _ = await iterator.next()
        let newer = Task { try await session.waitForRedirect(to: redirectURI) { sink.yield() } }
        await assertEnds(.cancelled, older)
        _ = await iterator.next()
        XCTAssertTrue(session.resume(with: response))
        let returned = try await newer.value
        XCTAssertEqual(returned, response)
    }

    func testACancelBeforeTheRunMeansTheSignInNeverStarts() async throws {
        let harness = try makeLocalHarness()
        let session = AuthorizationSession()
        XCTAssertTrue(session.cancel())
        assertFails(.cancelled, await session.run(on: harness.client, agent: HeadlessUserAgent()))
        XCTAssertTrue(harness.provider.requestLog.isEmpty, "nothing was asked of the provider")
        XCTAssertFalse(session.cancel(), "it has finished")
    }

    func testCancelAndEndWhileTheAppShowsThePage() async throws {
        let harness = try makeLocalHarness()
        for ending in [false, true] {
            let session = AuthorizationSession()
            let (shown, sink) = AsyncStream.makeStream(of: URL.self)
            let run = Task { await session.run(on: harness.client, agent: AppShownAgent(session: session, shown: sink)) }
            var iterator = shown.makeAsyncIterator()
            _ = await iterator.next()
            if ending {
                XCTAssertTrue(session.end(with: SessionError(.sessionEnded, process: .authentication, message: "signed out")))
                XCTAssertFalse(session.cancel(), "an ended sign-in is not cancelled on top")
                assertFails(.sessionEnded, await run.value)
            } else {
                XCTAssertTrue(session.cancel())
                assertFails(.cancelled, await run.value)
            }
            XCTAssertNil(harness.stored, "no tokens were stored")
        }
    }

    func testTheAppShowsAPushedRequestAndResumesWithItsRedirect() async throws {
        // A provider that takes only pushed requests and DPoP: the app is shown the reference alone.
        let harness = try makeLocalHarness { options in
            options.requiresPushedAuthorizationRequests = true
            options.offersDPoP = true
            options.requiresDPoP = true
        }
        let client = try harness.client(dpop: .required)
        let session = AuthorizationSession()
        let (shown, sink) = AsyncStream.makeStream(of: URL.self)
        let run = Task { await session.run(on: client, agent: AppShownAgent(session: session, shown: sink)) }
        var iterator = shown.makeAsyncIterator()
        let next = await iterator.next()
        let url = try XCTUnwrap(next)
        let names = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.map(\.name)
        XCTAssertEqual(names, ["client_id", "request_uri"])
        let redirect = try await HeadlessUserAgent().authorize(url: url, redirectURI: client.configuration.redirectURI)
        XCTAssertTrue(session.resume(with: redirect))
        let tokens = try await run.value.get()
        XCTAssertTrue(tokens.isSenderConstrained)
        let info = try await client.userInfo()
        XCTAssertEqual(info.sub, "erika")
    }

    func testACancelAfterTheSignInSucceededChangesNothing() async throws {
        let harness = try makeLocalHarness()
        let session = AuthorizationSession()
        let tokens = try await session.run(on: harness.client, agent: HeadlessUserAgent()).get()
        XCTAssertFalse(session.cancel())
        XCTAssertEqual(harness.stored?.accessToken, tokens.accessToken)
    }
}
