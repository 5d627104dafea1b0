import Dispatch
import Foundation
import SessionCore
import SessionFacade
import SessionTesting
import XCTest

/// Authorization outcomes, the external-resume path and cancellation: rules C2, C3, C13, C14.
final class AuthorizationOrderTests: XCTestCase {
    /// Initializes and routes authorization URLs (external-resume path) into `urls`.
    private func externalPath(_ facade: FacadeHarness) async -> AsyncStream<URL> {
        let (urls, sink) = AsyncStream.makeStream(of: URL.self)
        let log = facade.log
        facade.service.authorizationURLHandler = { url in
            log.record("handler", "authorizationURL", "")
            sink.yield(url)
        }
        await facade.initialize()
        return urls
    }

    func testSuccessfulAuthorization_C2_C3() async throws {
        let facade = try makeFacade()
        await facade.initialize()
        facade.service.getAuthorization(flow: .loginPermission, agent: HeadlessUserAgent(), completion: facade.log.completion("getAuthorization"))
        await facade.assertTranscript(after: FacadeHarness.initialized, ["A.didFinishAuthentication(token)", "completion.getAuthorization(token)"])
        assertOnCallbackQueue(facade.log)
    }

    func testDeniedAuthorization() async throws {
        let facade = try makeFacade()
        await facade.initialize()
        facade.provider.scriptConsent(.deny)
        facade.service.getAuthorization(agent: HeadlessUserAgent(), completion: facade.log.completion("getAuthorization"))
        await facade.assertTranscript(after: FacadeHarness.initialized, [
            "A.didFinishAuthenticationWithError(accessDenied)", "completion.getAuthorization(accessDenied)",
        ])
    }

    func testAnAgentThatFailsIsAnAuthenticationErrorNotACancellation() async throws {
        struct NoBrowser: Error {}
        struct Failing: AuthorizationAgent {
            func authorize(url: URL, redirectURI: URL) async throws -> URL { throw NoBrowser() }
        }
        let facade = try makeFacade()
        await facade.initialize()
        facade.service.getAuthorization(agent: Failing(), completion: facade.log.completion("getAuthorization"))
        await facade.assertTranscript(after: FacadeHarness.initialized, [
            "A.didFinishAuthenticationWithError(authorizationAgentFailed)", "completion.getAuthorization(authorizationAgentFailed)",
        ])
    }

    func testCancelAuthorizationReportsCancelled_C14() async throws {
        let facade = try makeFacade()
        facade.service.cancelAuthorization() // nothing pending: does nothing
        var urls = await externalPath(facade).makeAsyncIterator()
        facade.service.getAuthorization(completion: facade.log.completion("getAuthorization"))
        _ = await urls.next()
        facade.service.cancelAuthorization()
        await facade.assertTranscript(after: FacadeHarness.initialized, [
            "handler.authorizationURL()",
            "A.didCancelAuthentication(cancelled)", "completion.getAuthorization(cancelled)",
        ])
        assertOnCallbackQueue(facade.log) // the URL handler too (C1)
        XCTAssertTrue(facade.provider.requests(to: .token).isEmpty)
    }

    /// The cancelled sign-in's task is its own: the operation waiting behind it runs to its own
    /// outcome (C4), not into the sign-in's cancellation (C14).
    func testAnOperationBehindACancelledAuthorizationStillRuns_C4_C14() async throws {
        let facade = try makeFacade()
        var urls = await externalPath(facade).makeAsyncIterator()
        facade.service.getAuthorization(completion: facade.log.completion("getAuthorization"))
        facade.service.fetchUserInfo(completion: facade.log.completion("fetchUserInfo"))
        _ = await urls.next()
        facade.service.cancelAuthorization()
        await facade.assertTranscript(after: FacadeHarness.initialized, [
            "handler.authorizationURL()",
            "A.didCancelAuthentication(cancelled)", "completion.getAuthorization(cancelled)",
            "A.didFetchUserInfoWithError(notAuthenticated)", "completion.fetchUserInfo(notAuthenticated)",
        ])
    }

    func testResumeSessionCompletesTheAuthorizationOnce_C13() async throws {
        let facade = try makeFacade()
        var urls = await externalPath(facade).makeAsyncIterator()
        XCTAssertFalse(facade.service.resumeSession(URL(string: "com.example.sessiondemo:/callback?code=x&state=y")!),
                       "nothing is pending yet")
        facade.service.getAuthorization(flow: .login, completion: facade.log.completion("getAuthorization"))
        let next = await urls.next()
        let url = try XCTUnwrap(next)
        // The OS brings the redirect back to the app; here the headless agent plays the browser.
        let callback = try await HeadlessUserAgent().authorize(url: url, redirectURI: facade.configuration.redirectURI)

        XCTAssertFalse(facade.service.resumeSession(URL(string: "com.example.other:/callback?code=x")!), "a foreign URL")
        XCTAssertFalse(facade.service.resumeSession(URL(string: "https://example.com/callback")!), "a foreign URL")
        XCTAssertTrue(facade.service.resumeSession(callback))
        XCTAssertFalse(facade.service.resumeSession(callback), "the same URL a second time")
        await facade.assertTranscript(after: FacadeHarness.initialized, [
            "handler.authorizationURL()", "A.didFinishAuthentication(token)", "completion.getAuthorization(token)",
        ])
        XCTAssertEqual(facade.provider.requests(to: .token).count, 1)
    }

    func testAResumedURLWithAnErrorCompletesWithThatError_C13() async throws {
        let facade = try makeFacade()
        var urls = await externalPath(facade).makeAsyncIterator()
        facade.provider.scriptConsent(.deny)
        facade.service.getAuthorization(completion: facade.log.completion("getAuthorization"))
        let next = await urls.next()
        let url = try XCTUnwrap(next)
        let callback = try await HeadlessUserAgent().authorize(url: url, redirectURI: facade.configuration.redirectURI)
        XCTAssertTrue(facade.service.resumeSession(callback))
        await facade.assertTranscript(after: FacadeHarness.initialized + 1, [
            "A.didFinishAuthenticationWithError(accessDenied)", "completion.getAuthorization(accessDenied)",
        ])
    }

    func testWithoutAgentOrURLHandlerTheAuthorizationFails() async throws {
        let facade = try makeFacade()
        await facade.initialize()
        facade.service.getAuthorization(completion: facade.log.completion("getAuthorization"))
        await facade.assertTranscript(after: FacadeHarness.initialized, [
            "A.didFinishAuthenticationWithError(invalidConfiguration)", "completion.getAuthorization(invalidConfiguration)",
        ])
    }
}
