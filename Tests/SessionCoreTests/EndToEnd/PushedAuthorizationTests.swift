@testable import SessionCore
import ClientTestSupport
import Foundation
import SessionTesting
import XCTest

/// Pushed authorization requests (RFC 9126) against LocalProvider: the parameters go by an
/// authenticated POST, the browser gets only `client_id` and `request_uri`, and the provider uses
/// a `request_uri` once, before it expires, for the client that pushed it.
final class PushedAuthorizationTests: XCTestCase {
    private func pushingClient(_ harness: LocalHarness, pushes: Bool = true) throws -> SessionClient {
        try harness.client(pushes: pushes)
    }

    func testASignInPushesItsParametersAndTheBrowserGetsOnlyAReference() async throws {
        let harness = try makeLocalHarness()
        let client = try pushingClient(harness)
        let request = try await client.beginAuthorization()
        let query = Dictionary(uniqueKeysWithValues: (URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? [])
            .map { ($0.name, $0.value ?? "") })
        XCTAssertEqual(Set(query.keys), ["client_id", "request_uri"], "nothing of the request travels through the browser")
        XCTAssertTrue(query["request_uri"]?.hasPrefix("urn:ietf:params:oauth:request_uri:") == true)
        XCTAssertEqual(request.expiresAt, harness.clock.now().addingTimeInterval(60), "the provider's expires_in is kept")
        let pushed = try XCTUnwrap(harness.provider.requests(to: .pushedAuthorization).last)
        XCTAssertEqual(pushed.method, "POST")
        XCTAssertEqual(pushed.parameters["state"], request.state)
        XCTAssertEqual(pushed.parameters["code_challenge_method"], "S256")
        XCTAssertEqual(pushed.parameters["client_id"], client.configuration.clientID)

        let callback = try await HeadlessUserAgent().authorize(url: request.url, redirectURI: request.redirectURI)
        let tokens = try await client.completeAuthorization(callbackURL: callback)
        XCTAssertEqual(tokens.subject, LocalProvider.User.erika.subject)
        let info = try await client.userInfo()
        XCTAssertEqual(info.sub, "erika")
    }

    func testAProviderThatRequiresPushedRequestsGetsThemUnasked() async throws {
        let harness = try makeLocalHarness { $0.requiresPushedAuthorizationRequests = true }
        let client = try pushingClient(harness, pushes: false)
        let tokens = try await client.signIn(agent: HeadlessUserAgent())
        XCTAssertEqual(tokens.subject, "erika")
        XCTAssertEqual(harness.provider.requests(to: .pushedAuthorization).count, 1)
        // The same parameters in the URL itself are refused there.
        let pushed = try XCTUnwrap(harness.provider.requests(to: .pushedAuthorization).last?.parameters)
        let plain = try XCTUnwrap(FormEncoding.url(harness.provider.url(of: .authorization), appending: pushed.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        let page = try await CurlTransport(timeout: 5).send(HTTPRequest(method: "GET", url: plain, followsRedirects: false))
        XCTAssertEqual(page.status, 400)
    }

    func testARequestURIIsUsedOnceBeforeItExpiresByItsOwnClient() async throws {
        let harness = try makeLocalHarness { options in
            options.clients.append(LocalProvider.Client(id: "other", redirectURIs: LocalProvider.Client.demo.redirectURIs))
        }
        let client = try pushingClient(harness)
        func open(_ url: URL) async throws -> HTTPResponse {
            try await CurlTransport(timeout: 5).send(HTTPRequest(method: "GET", url: url, followsRedirects: false))
        }
        let once = try await client.beginAuthorization()
        let first = try await open(once.url)
        XCTAssertEqual(first.status, 302, "the first use redirects with a code")
        let again = try await open(once.url)
        XCTAssertEqual(again.status, 400, "a request_uri is used once")

        let expiring = try await client.beginAuthorization()
        harness.clock.advance(by: 61)
        let expired = try await open(expiring.url)
        XCTAssertEqual(expired.status, 400, "an expired request_uri is refused")

        let theirs = try await client.beginAuthorization()
        var components = try XCTUnwrap(URLComponents(url: theirs.url, resolvingAgainstBaseURL: false))
        components.queryItems = components.queryItems?.map { $0.name == "client_id" ? URLQueryItem(name: "client_id", value: "other") : $0 }
        let stolen = try await open(try XCTUnwrap(components.url))
        XCTAssertEqual(stolen.status, 400, "another client cannot use it")
    }

    func testTheEndpointRefusesWhatTheAuthorizationEndpointWould() async throws {
        let harness = try makeLocalHarness()
        let endpoint = harness.provider.url(of: .pushedAuthorization)
        func push(_ parameters: [(String, String)]) async throws -> HTTPResponse {
            try await CurlTransport(timeout: 5).send(.formPost(endpoint, parameters))
        }
        let unregistered = try await push([("client_id", "session-demo"), ("response_type", "code"), ("redirect_uri", "https://evil.example/cb")])
        XCTAssertEqual(unregistered.status, 400)
        let unknown = try await push([("client_id", "nobody"), ("response_type", "code"), ("redirect_uri", "com.example.sessiondemo:/callback")])
        XCTAssertEqual(unknown.status, 401, "the client is authenticated as at the token endpoint")
        let nested = try await push([("client_id", "session-demo"), ("request_uri", "urn:x"), ("redirect_uri", "com.example.sessiondemo:/callback")])
        XCTAssertEqual(nested.status, 400)
        let get = try await CurlTransport(timeout: 5).send(HTTPRequest(method: "GET", url: endpoint))
        XCTAssertEqual(get.status, 405)
    }

    func testAsksForPushingAtAProviderWithoutTheEndpointIsUnsupported() async throws {
        let harness = try makeLocalHarness()
        try await harness.serveDiscovery(without: ["pushed_authorization_request_endpoint", "require_pushed_authorization_requests"])
        let client = try pushingClient(harness)
        await assertSessionError(.unsupportedProviderFeature) { _ = try await client.beginAuthorization() }
    }
}
