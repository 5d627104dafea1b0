import ClientTestSupport
import Foundation
import SessionCore
import SessionWebAuthentication
import SessionTesting
import XCTest

/// The platform-neutral part of WebAuthenticationAgent: the callback a redirect URI calls for,
/// and one run of a browser session from start to its single outcome.
final class WebAuthenticationRunTests: XCTestCase {
    private let domain = "test.WebAuthenticationSession"
    private let callbackURL = URL(string: "com.example.app:/oauth/callback?code=abc&state=xyz")!

    func testTheCallbackFollowsTheRedirectURI() throws {
        XCTAssertEqual(try WebAuthenticationCallback(redirectURI: URL(string: "com.Example.App:/oauth/callback")!), .customScheme("com.example.app"))
        XCTAssertEqual(try WebAuthenticationCallback(redirectURI: URL(string: "https://App.Example/auth/done")!),
                       .https(host: "app.example", path: "/auth/done"))
        XCTAssertEqual(try WebAuthenticationCallback(redirectURI: URL(string: "https://app.example")!), .https(host: "app.example", path: "/"))
        for unusable in ["http://127.0.0.1:8080/callback", "http://localhost/cb", "https:/no-host"] {
            XCTAssertThrowsError(try WebAuthenticationCallback(redirectURI: URL(string: unusable)!), unusable) { error in
                XCTAssertEqual((error as? SessionError)?.code, .invalidConfiguration, unusable)
            }
        }
    }

    func testTheCallbackMatchesOnlyItsOwnRedirects() throws {
        let scheme = WebAuthenticationCallback.customScheme("com.example.app")
        XCTAssertTrue(scheme.matches(URL(string: "COM.EXAMPLE.APP:/anything?code=1")!))
        XCTAssertFalse(scheme.matches(URL(string: "com.example.other:/oauth/callback")!))
        let https = WebAuthenticationCallback.https(host: "app.example", path: "/auth/done")
        XCTAssertTrue(https.matches(URL(string: "https://APP.example/auth/done?code=1")!))
        XCTAssertFalse(https.matches(URL(string: "https://app.example/auth/elsewhere?code=1")!))
        XCTAssertFalse(https.matches(URL(string: "https://evil.example/auth/done?code=1")!))
        XCTAssertFalse(https.matches(URL(string: "http://app.example/auth/done?code=1")!))
        // The redirect-URI rule every agent uses: an empty path is "/", the port is https's.
        let root = WebAuthenticationCallback.https(host: "app.example", path: "/")
        XCTAssertTrue(root.matches(URL(string: "https://app.example?code=1")!))
        XCTAssertTrue(root.matches(URL(string: "https://app.example:443/?code=1")!))
        XCTAssertFalse(root.matches(URL(string: "https://app.example:8443/?code=1")!))
    }

    /// Runs a scripted session that reports (`url`, `error`) when started.
    @MainActor
    private func run(reporting url: URL?, _ error: (any Error)?, startSucceeds: Bool = true,
                     callback: WebAuthenticationCallback = .customScheme("com.example.app")) async -> (Result<URL, SessionError>, ScriptedBrowserSession?) {
        var made: ScriptedBrowserSession?
        do {
            let returned = try await WebAuthenticationRun.run(callback: callback, sessionErrorDomain: domain) { completion in
                let session = ScriptedBrowserSession(startSucceeds: startSucceeds, completion: completion) { completion in completion(url, error) }
                made = session
                return session
            }
            return (.success(returned), made)
        } catch {
            return (.failure(error as? SessionError ?? SessionError(.networkError, process: .authentication, message: "not a SessionError: \(error)")), made)
        }
    }

    @MainActor
    func testAReturnedCallbackURLIsTheResult() async throws {
        let (result, session) = await run(reporting: callbackURL, nil)
        XCTAssertEqual(try result.get(), callbackURL)
        XCTAssertEqual(session?.starts, 1)
        XCTAssertEqual(session?.cancels, 0)
    }

    @MainActor
    func testTheSessionsErrorsMapToSessionErrors() async throws {
        let cases: [(String, (any Error)?, SessionError.Code)] = [
            ("the user closed the page", NSError(domain: domain, code: 1), .cancelled),
            ("no presentation context", NSError(domain: domain, code: 2), .authorizationAgentFailed),
            ("an invalid presentation context", NSError(domain: domain, code: 3), .authorizationAgentFailed),
            ("an unknown code of the session", NSError(domain: domain, code: 99), .authorizationAgentFailed),
            ("an error of another domain with code 1", NSError(domain: "NSURLErrorDomain", code: 1), .authorizationAgentFailed),
            ("neither URL nor error", nil, .authorizationAgentFailed),
        ]
        for (name, error, expected) in cases {
            let (result, _) = await run(reporting: nil, error)
            guard case .failure(let failure) = result else { return XCTFail("\(name): succeeded") }
            XCTAssertEqual(failure.code, expected, name)
        }
    }

    @MainActor
    func testAURLTheCallbackDoesNotMatchIsARedirectMismatch() async throws {
        let (result, _) = await run(reporting: URL(string: "https://evil.example/cb?code=abc")!, nil)
        guard case .failure(let failure) = result else { return XCTFail("a foreign URL was accepted") }
        XCTAssertEqual(failure.code, .redirectURIMismatch)
    }

    /// C12: the URLs a session hands back carry the code and state; no error repeats them.
    @MainActor
    func testNoErrorRepeatsTheCodeOrStateOfAReturnedURL_C12() async throws {
        let foreign = URL(string: "https://evil.example/cb?code=secret-code&state=secret-state")!
        let reports: [(URL?, (any Error)?)] = [(foreign, nil), (nil, NSError(domain: domain, code: 1)), (nil, NSError(domain: domain, code: 2)),
                                               (nil, NSError(domain: "NSURLErrorDomain", code: -1)), (nil, nil)]
        for (url, error) in reports {
            let (result, _) = await run(reporting: url, error)
            guard case .failure(let failure) = result else { return XCTFail("\(String(describing: url)) was accepted") }
            XCTAssertFalse("\(failure) \(failure.message)".contains("secret"), failure.message)
        }
    }

    @MainActor
    func testASessionThatDoesNotStartFailsAtOnce() async throws {
        let (result, session) = await run(reporting: callbackURL, nil, startSucceeds: false)
        guard case .failure(let failure) = result else { return XCTFail("succeeded without starting") }
        XCTAssertEqual(failure.code, .authorizationAgentFailed)
        XCTAssertEqual(session?.starts, 1)
    }

    @MainActor
    func testOnlyTheFirstReportCounts() async throws {
        let url = callbackURL
        let returned = try await WebAuthenticationRun.run(callback: .customScheme("com.example.app"), sessionErrorDomain: domain) { completion in
            ScriptedBrowserSession(completion: completion) { completion in
                completion(url, nil)
                completion(nil, NSError(domain: "test.WebAuthenticationSession", code: 1))
                completion(URL(string: "com.example.app:/second")!, nil)
            }
        }
        XCTAssertEqual(returned, url)
    }

    @MainActor
    func testAnErrorBuildingTheSessionEndsTheRunWithIt() async throws {
        do {
            _ = try await WebAuthenticationRun.run(callback: .customScheme("com.example.app"), sessionErrorDomain: domain) { _ in
                throw SessionError(.authorizationAgentFailed, process: .authentication, message: "no window (test)")
            }
            XCTFail("succeeded")
        } catch {
            XCTAssertEqual((error as? SessionError)?.message, "no window (test)")
        }
    }

    @MainActor
    func testCancellingTheTaskDismissesTheShowingSessionAndEndsAsCancelled() async throws {
        let shown = expectation(description: "the page is showing")
        let sessions = Locked<[ScriptedBrowserSession]>([])
        let domain = domain
        let task = Task { @MainActor in
            try await WebAuthenticationRun.run(callback: .customScheme("com.example.app"), sessionErrorDomain: domain) { completion in
                let session = ScriptedBrowserSession(completion: completion) { _ in shown.fulfill() }
                sessions.withLock { $0.append(session) }
                return session
            }
        }
        await fulfillment(of: [shown], timeout: 5)
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("a cancelled sign-in succeeded")
        } catch {
            XCTAssertEqual((error as? SessionError)?.code, .cancelled)
        }
        let session = try XCTUnwrap(sessions.withLock { $0.first })
        XCTAssertEqual(session.cancels, 1, "the page was dismissed")
    }

    @MainActor
    func testATaskCancelledBeforeTheRunNeverShowsThePage() async throws {
        let sessions = Locked<[ScriptedBrowserSession]>([])
        let domain = domain
        let gate = Signal()
        let task = Task { @MainActor in
            await gate.wait()
            return try await WebAuthenticationRun.run(callback: .customScheme("com.example.app"), sessionErrorDomain: domain) { completion in
                let session = ScriptedBrowserSession(completion: completion) { _ in }
                sessions.withLock { $0.append(session) }
                return session
            }
        }
        task.cancel()
        await gate.raise()
        do {
            _ = try await task.value
            XCTFail("a cancelled sign-in succeeded")
        } catch {
            XCTAssertEqual((error as? SessionError)?.code, .cancelled)
        }
        XCTAssertEqual(sessions.withLock { $0.map(\.starts) }, [], "no session was made")
    }

    func testASessionClientSignsInThroughAWebAuthenticationRunAgainstLocalProvider() async throws {
        let harness = try makeLocalHarness()
        XCTAssertEqual(harness.client.configuration.redirectURI.scheme, "com.example.sessiondemo")
        let tokens = try await harness.client.signIn(agent: ScriptedWebAuthenticationAgent())
        XCTAssertEqual(tokens.subject, "erika")
        XCTAssertEqual(harness.stored, tokens)
    }

    func testAPushedDPoPSignInThroughAWebAuthenticationRun() async throws {
        let harness = try makeLocalHarness { options in
            options.requiresPushedAuthorizationRequests = true
            options.offersDPoP = true
            options.requiresDPoPNonce = true
        }
        let client = try harness.client(dpop: .whenSupported)
        let tokens = try await client.signIn(agent: ScriptedWebAuthenticationAgent())
        XCTAssertTrue(tokens.isSenderConstrained)
        XCTAssertEqual(harness.provider.requests(to: .pushedAuthorization).filter { $0.dpopProof != nil }.count, 2,
                       "the pushed request, proved, answered use_dpop_nonce and sent once more")
        let info = try await client.userInfo()
        XCTAssertEqual(info.sub, "erika")
    }
}
