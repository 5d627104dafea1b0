import ClientTestSupport
import Foundation
import LoopbackHTTP
import SessionCore
import SessionLoopback
import SessionTesting
import XCTest

/// LoopbackBrowserAgent against LocalProvider, with a headless "browser" following the URL the
/// agent opens and landing on the agent's loopback listener.
final class LoopbackBrowserAgentTests: XCTestCase {
    private static let anyPortRedirect = URL(string: "http://127.0.0.1/callback")!

    /// Plays the browser: follows the provider to the redirect, lets `edit` change its query
    /// items (an attacker's or a stale tab's redirect), and loads it from the listener.
    private static func browse(_ url: URL, edit: @Sendable (inout [URLQueryItem]) -> Void = { _ in }) async throws -> String {
        let redirect = try XCTUnwrap(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
            .first { $0.name == "redirect_uri" }?.value.flatMap(URL.init(string:)))
        let callback = try await HeadlessUserAgent().authorize(url: url, redirectURI: redirect)
        var components = try XCTUnwrap(URLComponents(url: callback, resolvingAgainstBaseURL: false))
        var items = components.queryItems ?? []
        edit(&items)
        components.queryItems = items
        let page = try await CurlTransport(timeout: 5).send(HTTPRequest(method: "GET", url: try XCTUnwrap(components.url)))
        return String(decoding: page.body, as: UTF8.self)
    }

    /// Signs in with the browser played by ``browse(_:edit:)``; returns the page and the outcome.
    private func signIn(_ harness: LocalHarness, edit: @escaping @Sendable (inout [URLQueryItem]) -> Void = { _ in })
        async -> (page: String, outcome: Result<SessionTokens, Error>) {
        let (pages, pageSink) = AsyncStream.makeStream(of: String.self)
        let agent = LoopbackBrowserAgent(timeout: 20, opener: .custom { url in
            Task { pageSink.yield((try? await Self.browse(url, edit: edit)) ?? "browser failed") }
        }, showInstruction: { _ in })
        let client = harness.client
        let outcome = await Task { try await client.signIn(agent: agent) }.result
        var iterator = pages.makeAsyncIterator()
        return (await iterator.next() ?? "", outcome)
    }

    func testThePageTellsTheBrowserWhatTheAppWillDoWithTheRedirect() async throws {
        func remove(_ name: String) -> @Sendable (inout [URLQueryItem]) -> Void { { items in items.removeAll { $0.name == name } } }
        func replace(_ name: String, _ value: String) -> @Sendable (inout [URLQueryItem]) -> Void {
            { items in items = items.map { $0.name == name ? URLQueryItem(name: name, value: value) : $0 } }
        }
        let cases: [(String, LocalProvider.ConsentDecision, @Sendable (inout [URLQueryItem]) -> Void, title: String, says: String, SessionError.Code?)] = [
            ("approved", .approve, { _ in }, "Sign-in received", "The app is finishing your sign-in", nil),
            ("declined", .deny, { _ in }, "Sign-in declined", "You declined the sign-in (access_denied)", .accessDenied),
            ("another error", .approve, { items in items = items.filter { $0.name == "state" || $0.name == "iss" } + [URLQueryItem(name: "error", value: "temporarily_unavailable<b>")] },
             "Sign-in failed", "The provider reported an error (temporarily_unavailableb)", .oauthError),
            ("another issuer", .approve, replace("iss", "https://evil.example"), "Sign-in failed", "did not come from the provider", .authorizationIssuerMismatch),
            ("no code", .approve, remove("code"), "Sign-in failed", "carries no authorization code", .missingAuthorizationCode),
        ]
        for (name, consent, edit, title, says, code) in cases {
            let harness = try makeLocalHarness(redirectURI: Self.anyPortRedirect)
            harness.provider.scriptConsent(consent)
            let (page, outcome) = await signIn(harness, edit: edit)
            XCTAssertTrue(page.contains("<title>\(title)</title>") && page.contains("<h1>\(title)</h1>"), "\(name): \(page)")
            XCTAssertTrue(page.contains(says), "\(name): \(page)")
            XCTAssertFalse(page.contains("<b>") || page.contains("http"), "\(name): no markup from the URL, no external resource")
            let sentState = try XCTUnwrap(harness.provider.requests(to: .authorization).last?.parameters["state"])
            XCTAssertFalse(page.contains(sentState), "\(name): no secret on the page")
            switch (outcome, code) {
            case (.success, nil): break
            case (.failure(let error as SessionError), let code?): XCTAssertEqual(error.code, code, name)
            default: XCTFail("\(name): \(outcome)")
            }
        }
    }

    func testAnEphemeralPortReceivesTheRedirectAndSignInCompletes() async throws {
        let harness = try makeLocalHarness(redirectURI: Self.anyPortRedirect)
        let (pages, pageSink) = AsyncStream.makeStream(of: String.self)
        let printed = LineCollector()
        let agent = LoopbackBrowserAgent(timeout: 20, opener: .custom { url in
            Task { pageSink.yield((try? await Self.browse(url)) ?? "browser failed") }
        }, showInstruction: printed.add)

        let tokens = try await harness.client.signIn(agent: agent)
        XCTAssertEqual(tokens.subject, "erika")
        var iterator = pages.makeAsyncIterator()
        let page = await iterator.next()
        XCTAssertTrue(page?.contains("Sign-in received") == true, page ?? "")

        let sent = try XCTUnwrap(harness.provider.requests(to: .authorization).last?.parameters["redirect_uri"])
        let port = try XCTUnwrap(URLComponents(string: sent)?.port)
        XCTAssertNotEqual(port, 80)
        XCTAssertEqual(harness.provider.requests(to: .token).last?.parameters["redirect_uri"], sent,
                       "the code is exchanged with the URI the agent listened on")
        XCTAssertEqual(printed.lines.count, 1)
        XCTAssertTrue(printed.lines.first?.hasPrefix("Open this URL in a browser to sign in: http://127.0.0.1:") == true)
    }

    /// With pushed requests (RFC 9126) the browser's URL holds no redirect URI: the pushed one,
    /// with the port the agent listens on, is where the provider sends the browser back.
    func testAPushedRequestComesBackToTheListenerToo() async throws {
        let harness = try makeLocalHarness(redirectURI: Self.anyPortRedirect) { $0.requiresPushedAuthorizationRequests = true }
        let provider = harness.provider
        let (pages, pageSink) = AsyncStream.makeStream(of: String.self)
        let agent = LoopbackBrowserAgent(timeout: 20, opener: .custom { url in
            Task {
                let pushed = provider.requests(to: .pushedAuthorization).last?.parameters["redirect_uri"].flatMap(URL.init(string:))
                guard let pushed, let callback = try? await HeadlessUserAgent().authorize(url: url, redirectURI: pushed),
                      let page = try? await CurlTransport(timeout: 5).send(HTTPRequest(method: "GET", url: callback)) else {
                    pageSink.yield("browser failed")
                    return
                }
                pageSink.yield(String(decoding: page.body, as: UTF8.self))
            }
        }, showInstruction: { _ in })
        let tokens = try await harness.client.signIn(agent: agent)
        XCTAssertEqual(tokens.subject, "erika")
        var iterator = pages.makeAsyncIterator()
        let page = await iterator.next()
        XCTAssertTrue(page?.contains("Sign-in received") == true, page ?? "")
        XCTAssertNil(provider.requests(to: .authorization).last?.parameters["redirect_uri"], "the browser carried only the reference")
    }

    func testAConfiguredPortIsTheOneListenedOn() async throws {
        let probe = try LoopbackHTTPServer { _ in .dropConnection }
        let port = probe.port
        probe.stop()
        await probe.waitUntilStopped()
        let redirect = try XCTUnwrap(URL(string: "http://127.0.0.1:\(port)/callback"))
        let harness = try makeLocalHarness(redirectURI: redirect)
        let agent = LoopbackBrowserAgent(timeout: 20, opener: .custom { url in Task { _ = try? await Self.browse(url) } }, showInstruction: { _ in })
        _ = try await harness.client.signIn(agent: agent)
        XCTAssertEqual(harness.provider.requests(to: .authorization).last?.parameters["redirect_uri"], redirect.absoluteString)
        // The sign-in returns once the port is free again: a second one binds it at once.
        _ = try await harness.client.signIn(agent: agent)
        XCTAssertEqual(harness.provider.requests(to: .authorization).count, 2)
    }

    /// A configured port another program holds: the error names the port and the way out.
    func testAPortInUseNamesThePortAndSuggestsLeavingItOut() async throws {
        let holder = try LoopbackHTTPServer { _ in .dropConnection }
        defer { holder.stop() }
        let redirect = try XCTUnwrap(URL(string: "http://127.0.0.1:\(holder.port)/callback"))
        let harness = try makeLocalHarness(redirectURI: redirect)
        let agent = LoopbackBrowserAgent(timeout: 1, opener: .printOnly, showInstruction: { _ in })
        let error = await assertSessionError(.networkError, process: .authentication) { try await harness.client.signIn(agent: agent) }
        let message = error?.message ?? ""
        XCTAssertTrue(message.contains("cannot listen on 127.0.0.1 port \(holder.port)"), message)
        XCTAssertTrue(message.contains("leave the port out of the redirect URI (http://127.0.0.1/callback)"), message)
    }

    /// RP-initiated logout through the browser: the provider's page sends it back to the
    /// listener, which tells it the sign-out is done.
    func testASignOutAtTheProviderComesBackToTheListener() async throws {
        try await signOutAtTheProvider { $0 }
    }

    /// The same through an observing wrapper (as Compat modules wrap agents): it must hand the
    /// loopback agent the sign-out too, or the agent's ephemeral port is never listened on.
    func testAWrappedLoopbackAgentSignsOutAtTheProviderToo() async throws {
        try await signOutAtTheProvider { ObservedAuthorizationAgent($0) { _ in } }
    }

    private func signOutAtTheProvider(wrap: (AuthorizationAgent) -> AuthorizationAgent) async throws {
        let harness = try makeLocalHarness(redirectURI: Self.anyPortRedirect)
        _ = try await harness.signIn(.login)
        let (pages, sink) = AsyncStream.makeStream(of: String.self)
        let agent = LoopbackBrowserAgent(timeout: 20, opener: .custom { url in
            Task {
                let back = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
                    .first { $0.name == "post_logout_redirect_uri" }?.value.flatMap(URL.init(string:))
                guard let back, let callback = try? await HeadlessUserAgent().authorize(url: url, redirectURI: back),
                      let page = try? await CurlTransport(timeout: 5).send(HTTPRequest(method: "GET", url: callback)) else {
                    sink.yield("browser failed")
                    return
                }
                sink.yield(String(decoding: page.body, as: UTF8.self))
            }
        }, showInstruction: { _ in })
        try await harness.client.signOut(endingProviderSessionWith: wrap(agent))
        var iterator = pages.makeAsyncIterator()
        let page = await iterator.next() ?? ""
        XCTAssertTrue(page.contains("Signed out"), page)
        XCTAssertEqual(harness.provider.endedSessions, 1)
        let sent = harness.provider.requests(to: .endSession).last?.parameters["post_logout_redirect_uri"] ?? ""
        XCTAssertTrue(sent.hasPrefix("http://127.0.0.1:") && sent.hasSuffix("/callback"), "the port the agent listened on: \(sent)")
    }

    func testNoBrowserComingBackEndsWithTimeout() async throws {
        let harness = try makeLocalHarness(redirectURI: Self.anyPortRedirect)
        let agent = LoopbackBrowserAgent(timeout: 0.3, opener: .printOnly, showInstruction: { _ in })
        await assertSessionError(.timeout, process: .authentication) { try await harness.client.signIn(agent: agent) }
        XCTAssertNil(harness.stored)
    }

    func testCancellingTheTaskEndsWithCancelled() async throws {
        let harness = try makeLocalHarness(redirectURI: Self.anyPortRedirect)
        let (opened, openedSink) = AsyncStream.makeStream(of: URL.self)
        // An unbounded timeout is accepted (it is clamped, not converted as is).
        let agent = LoopbackBrowserAgent(timeout: .infinity, opener: .custom { openedSink.yield($0) }, showInstruction: { _ in })
        let client = harness.client
        let signIn = Task { try await client.signIn(agent: agent) }
        var iterator = opened.makeAsyncIterator()
        _ = await iterator.next()
        signIn.cancel()
        await assertSessionError(.cancelled, process: .authentication) { try await signIn.value }
        let pending = await client.isRedirectForPendingAuthorization(Self.anyPortRedirect)
        XCTAssertFalse(pending)
    }

    func testAFinishedURLNeedsARedirectURIWithAPort() async throws {
        let agent = LoopbackBrowserAgent(timeout: 1, opener: .printOnly, showInstruction: { _ in })
        await assertSessionError(.invalidConfiguration, process: .authentication) {
            try await agent.authorize(url: URL(string: "http://127.0.0.1:1/authorize")!, redirectURI: Self.anyPortRedirect)
        }
    }

    func testARedirectURIThatIsNotLoopbackHTTPIsRefused() async throws {
        let harness = try makeLocalHarness()
        let agent = LoopbackBrowserAgent(timeout: 1, opener: .printOnly, showInstruction: { _ in })
        await assertSessionError(.invalidConfiguration, process: .authentication) { try await harness.client.signIn(agent: agent) }
        XCTAssertTrue(harness.provider.requests(to: .authorization).isEmpty)
    }
}

/// Lines handed to a `print` function.
final class LineCollector: Sendable {
    private let stored = Locked<[String]>([])
    var lines: [String] { stored.value }
    func add(_ line: String) { stored.withLock { $0.append(line) } }
}
