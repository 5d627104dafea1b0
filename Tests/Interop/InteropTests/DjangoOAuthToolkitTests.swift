import Foundation
import SessionCore
import SessionLoopback
import SessionTesting
import XCTest

/// SessionClient against django-oauth-toolkit (started by run-interop.sh), the browser step
/// played headlessly with real login and consent form posts.
final class DjangoOAuthToolkitTests: XCTestCase {
    private var environment: InteropEnvironment!

    override func setUpWithError() throws {
        environment = try InteropEnvironment.load()
    }

    private func user(approves: Bool = true) -> HeadlessUserAgent {
        HeadlessUserAgent(pageHandler: DjangoUser.pages(username: environment.username, password: environment.password, approves: approves))
    }

    private func client(_ configuration: SessionConfiguration? = nil, store: TokenStore = InMemoryTokenStore()) throws -> SessionClient {
        SessionClient(configuration: try configuration ?? environment.configuration(), store: store, transport: CurlTransport(timeout: 10))
    }

    func testDiscoveryFindsTheRevocationEndpointInTheOAuthMetadata() async throws {
        let client = try client()
        let metadata = try await client.discover()
        XCTAssertEqual(metadata.issuer, environment.issuer.absoluteString)
        let revocation = try await client.revocationEndpoint()
        XCTAssertEqual(revocation?.absoluteString, environment.issuer.absoluteString + "/revoke_token/",
                       "django-oauth-toolkit names it only in /o/.well-known/oauth-authorization-server")
    }

    func testSignInUserInfoAndRestoreInANewClient() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("interop-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let configuration = try environment.configuration()
        let first = try client(store: try FileTokenStore(configuration: configuration, directory: directory))
        let tokens = try await first.signIn(agent: user())
        XCTAssertEqual(tokens.subject, environment.subject, "the ID token's RS256 signature and claims were accepted")
        XCTAssertNotNil(tokens.refreshToken)

        let info = try await first.userInfo()
        XCTAssertEqual(info.sub, environment.subject)
        XCTAssertEqual(info.givenName, "Alice")
        XCTAssertEqual(info.email, "alice@example.com")

        let second = try client(store: try FileTokenStore(configuration: configuration, directory: directory))
        let restored = try await second.loadStoredSession()
        XCTAssertEqual(restored, tokens)
        let again = try await second.userInfo()
        XCTAssertEqual(again.sub, environment.subject)
    }

    func testRefreshRotatesAndTheOldRefreshTokenIsRefused() async throws {
        let session = try client()
        let original = try await session.signIn(agent: user())
        try await session.setTokens(original.withExpiry(Date(timeIntervalSinceNow: -60)))
        let refreshed = try await session.validTokens()
        XCTAssertNotEqual(refreshed.refreshToken, original.refreshToken, "the provider rotated the refresh token")
        XCTAssertNotEqual(refreshed.accessToken, original.accessToken)
        XCTAssertEqual(refreshed.subject, environment.subject)

        let stale = try client()
        try await stale.setTokens(original.withExpiry(Date(timeIntervalSinceNow: -60)))
        let error = await assertThrows(.reauthenticationRequired) { try await stale.validTokens() }
        XCTAssertEqual(error?.oauthError, "invalid_grant")
        let stored = await stale.tokens
        XCTAssertNil(stored, "a refused refresh ends the session")

        // REFRESH_TOKEN_REUSE_PROTECTION: the replay revoked the rotated token as well.
        try await session.setTokens(refreshed.withExpiry(Date(timeIntervalSinceNow: -60)))
        await assertThrows(.reauthenticationRequired) { try await session.validTokens() }
    }

    func testSignOutRevokesAndTheRefreshTokenIsRefusedAfterwards() async throws {
        let session = try client()
        let tokens = try await session.signIn(agent: user())
        let error = try await refusalAfterRevoking(tokens, signingOut: session, thenRefreshingIn: try client())
        XCTAssertEqual(error?.oauthError, "invalid_grant")
    }

    /// A confidential client: client_secret_basic and client_secret_post on the code exchange,
    /// the refresh and the revocation; a wrong secret is invalid_client.
    func testAConfidentialClientWithBasicAndWithPost() async throws {
        for method in [ClientAuthentication.clientSecretBasic, ClientAuthentication.clientSecretPost] {
            let session = try client(environment.confidentialConfiguration(method))
            let tokens = try await session.signIn(agent: user())
            XCTAssertEqual(tokens.subject, environment.subject)
            let refreshed = try await session.refresh()
            XCTAssertNotEqual(refreshed.refreshToken, tokens.refreshToken)
            try await session.signOut(revokeTokens: true)
            let remaining = await session.tokens
            XCTAssertNil(remaining)
        }
        let wrong = try client(environment.confidentialConfiguration { _ in .clientSecretBasic("not-the-secret") })
        _ = await assertThrows(.invalidClient) { try await wrong.signIn(agent: user()) }
    }

    /// RFC 8628 against django-oauth-toolkit, which offers the grant without naming its endpoint
    /// in discovery: the user approves (then denies) on its device pages while the client polls.
    func testADeviceSignInApprovedAndDeniedAtAnotherDevice() async throws {
        for approves in [true, false] {
            let configuration = try SessionConfiguration(issuer: environment.issuer, clientID: "interop-device",
                                                         redirectURI: URL(string: "http://127.0.0.1/callback")!,
                                                         deviceAuthorizationEndpoint: environment.issuer.appendingPathComponent("device-authorization/"))
            let session = try client(configuration)
            // django-oauth-toolkit issues no ID token for this grant: a scope without openid.
            let authorization = try await session.beginDeviceAuthorization(scopes: ["profile"])
            let page = try XCTUnwrap(authorization.verificationURIComplete)
            let polling = Task { try await session.completeDeviceAuthorization(authorization) }
            let browser = user(approves: approves)
            let status = environment.issuer.appendingPathComponent("device-grant-status/interop-device/\(authorization.userCode)")
            _ = try await browser.authorize(url: page, redirectURI: status)
            if approves {
                let tokens = try await polling.value
                XCTAssertFalse(tokens.accessToken.isEmpty)
                XCTAssertNotNil(tokens.refreshToken)
            } else {
                _ = await assertThrows(.accessDenied) { try await polling.value }
            }
        }
    }

    /// RP-initiated logout against django-oauth-toolkit: revocation, the local session, then its
    /// logout endpoint with id_token_hint and a registered return URI, which brings the state back.
    func testSignOutAtTheProviderToo() async throws {
        let session = try client()
        let metadata = try await session.discover()
        XCTAssertNotNil(metadata.endSessionEndpoint)
        let tokens = try await session.signIn(agent: user())
        try await session.signOut(revokeTokens: true, endingProviderSessionWith: user())
        let remaining = await session.tokens
        XCTAssertNil(remaining)

        let later = try client()
        try await later.setTokens(tokens.withExpiry(Date(timeIntervalSinceNow: -60)))
        _ = await assertThrows(.reauthenticationRequired) { try await later.validTokens() }
    }

    func testDeniedConsentGivesAccessDenied() async throws {
        let session = try client()
        let error = await assertThrows(.accessDenied) { try await session.signIn(agent: user(approves: false)) }
        XCTAssertEqual(error?.process, .authentication)
        let tokens = await session.tokens
        XCTAssertNil(tokens)
    }

    /// A loopback agent whose browser is `browser`: it follows login and consent, loads the
    /// redirect from the agent and hands over the page it got.
    private func loopbackAgent(browser: HeadlessUserAgent) -> (LoopbackBrowserAgent, AsyncStream<String>) {
        let (pages, sink) = AsyncStream.makeStream(of: String.self)
        let agent = LoopbackBrowserAgent(timeout: 30, opener: .custom { url in
            Task {
                guard let redirect = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
                    .first(where: { $0.name == "redirect_uri" })?.value.flatMap(URL.init(string:)),
                    let callback = try? await browser.authorize(url: url, redirectURI: redirect),
                    let page = try? await CurlTransport(timeout: 10).send(HTTPRequest(method: "GET", url: callback)) else {
                    sink.yield("the browser got no page")
                    return
                }
                sink.yield(String(decoding: page.body, as: UTF8.self))
            }
        }, showInstruction: { _ in })
        return (agent, pages)
    }

    func testLoopbackBrowserAgentOnAnEphemeralPort() async throws {
        let session = try client(try environment.configuration(redirectURI: "http://127.0.0.1/callback"))
        let (agent, pages) = loopbackAgent(browser: user())
        let tokens = try await session.signIn(agent: agent)
        XCTAssertEqual(tokens.subject, environment.subject, "django-oauth-toolkit accepted the loopback redirect with a port (RFC 8252 §7.3)")
        var iterator = pages.makeAsyncIterator()
        let page = await iterator.next() ?? ""
        XCTAssertTrue(page.contains("<h1>Sign-in received</h1>"), page)
    }

    func testTheBrowserIsToldWhenTheUserDeclinedAtTheConsentPage() async throws {
        let session = try client(try environment.configuration(redirectURI: "http://127.0.0.1/callback"))
        let (agent, pages) = loopbackAgent(browser: user(approves: false))
        await assertThrows(.accessDenied) { try await session.signIn(agent: agent) }
        var iterator = pages.makeAsyncIterator()
        let page = await iterator.next() ?? ""
        XCTAssertTrue(page.contains("<h1>Sign-in declined</h1>") && page.contains("access_denied"), page)
    }
}
