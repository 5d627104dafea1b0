import ClientTestSupport
import Foundation
import SessionCore
import SessionTesting
import XCTest

/// A client configured with an OAuth 2.0 authorization server (`MetadataDiscovery.authorizationServer`),
/// as a protected resource names one, against LocalProvider over loopback: its RFC 8414 document
/// found first, the OpenID one when it has only that, PKCE required to be listed, and a server that
/// is OAuth only giving a session without identity that still refreshes and authorizes.
final class AuthorizationServerDiscoveryTests: XCTestCase {
    func testAnOAuthOnlyServerSignsInWithoutIdentityAndRefreshes() async throws {
        let harness = try makeLocalHarness { $0.servesOpenIDConnect = false }
        let metadata = try await harness.client.discover()
        XCTAssertNil(metadata.jwksURI, "the RFC 8414 document names no keys")
        XCTAssertNil(metadata.userInfoEndpoint)
        XCTAssertEqual(harness.provider.requests(to: .oauthMetadata).count, 1)
        XCTAssertEqual(harness.provider.requests(to: .discovery).count, 0, "the OAuth document is asked for first")

        let tokens = try await harness.client.signIn(agent: HeadlessUserAgent())
        XCTAssertFalse(tokens.hasIdentity)
        XCTAssertNil(tokens.idToken)
        XCTAssertNil(tokens.subject)
        XCTAssertTrue(tokens.idTokenClaims.isEmpty)
        XCTAssertNotNil(tokens.refreshToken)
        let authorization = try XCTUnwrap(harness.provider.requests(to: .authorization).last)
        XCTAssertNil(authorization.parameters["scope"], "no scope configured: none is sent, and openid is not added")
        XCTAssertNil(authorization.parameters["nonce"])

        let refreshed = try await harness.client.refresh()
        XCTAssertNotEqual(refreshed.accessToken, tokens.accessToken)
        XCTAssertFalse(refreshed.hasIdentity)
        XCTAssertTrue(harness.provider.isActive(accessToken: refreshed.accessToken))
        await assertSessionError(.unsupportedProviderFeature) { _ = try await harness.client.userInfo() }
    }

    func testConfiguredScopesAreAskedForWithoutOpenID() async throws {
        let provider = try LocalProvider(clock: ManualClock()) {
            $0.servesOpenIDConnect = false
            $0.additionalScopes = ["files:read"]
        }
        addTeardownBlock { provider.stop() }
        let client = SessionClient(configuration: try provider.configuration(scopes: ["files:read"]), clock: provider.options.clock)
        let tokens = try await client.signIn(agent: HeadlessUserAgent())
        XCTAssertEqual(tokens.scopes, ["files:read"])
        XCTAssertEqual(provider.requests(to: .authorization).last?.parameters["scope"], "files:read")
    }

    func testAnOpenIDProviderWithoutAnOAuthDocumentIsFoundByItsOpenIDDocument() async throws {
        let harness = try makeLocalHarness()
        harness.provider.inject(.status(404), at: .oauthMetadata, times: nil)
        let configuration = try SessionConfiguration(issuer: harness.provider.issuer, clientID: LocalProvider.Client.demo.id,
                                                     redirectURI: try XCTUnwrap(LocalProvider.Client.demo.redirectURIs.first),
                                                     metadataDiscovery: .authorizationServer)
        let client = SessionClient(configuration: configuration, clock: harness.clock)
        let metadata = try await client.discover()
        XCTAssertNotNil(metadata.jwksURI)
        XCTAssertEqual(harness.provider.requests(to: .oauthMetadata).count, 1)
        XCTAssertEqual(harness.provider.requests(to: .discovery).count, 1)
        let tokens = try await client.signIn(scopes: ["openid"], agent: HeadlessUserAgent())
        XCTAssertTrue(tokens.hasIdentity, "an ID token from the OpenID document's keys is validated")
        XCTAssertEqual(tokens.subject, "erika")
    }

    func testAServerThatDoesNotListPKCEIsRefused() async throws {
        let harness = try makeLocalHarness { $0.servesOpenIDConnect = false }
        let document: [String: Any] = [
            "issuer": harness.provider.issuer.absoluteString,
            "authorization_endpoint": harness.provider.url(of: .authorization).absoluteString,
            "token_endpoint": harness.provider.url(of: .token).absoluteString,
            "response_types_supported": ["code"],
        ]
        let body = String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self)
        harness.provider.inject(.status(200, body: body), at: .oauthMetadata, times: nil)
        await assertSessionError(.unsupportedProviderFeature) { _ = try await harness.client.discover() }
        XCTAssertTrue(harness.provider.requests(to: .authorization).isEmpty)
    }

    func testAnOpenIDDocumentWithoutKeysIsStillRefused() async throws {
        let harness = try makeLocalHarness()
        try await harness.serveDiscovery(without: ["jwks_uri"])
        let configuration = try SessionConfiguration(issuer: harness.provider.issuer, clientID: LocalProvider.Client.demo.id,
                                                     redirectURI: try XCTUnwrap(LocalProvider.Client.demo.redirectURIs.first),
                                                     metadataDiscovery: .authorizationServer)
        let client = SessionClient(configuration: configuration, clock: harness.clock)
        await assertSessionError(.invalidDiscoveryDocument) { _ = try await client.discover() }
    }

    func testAServerFailingAtAWellKnownPlaceIsNotPassedOver() async throws {
        let harness = try makeLocalHarness { $0.servesOpenIDConnect = false }
        harness.provider.inject(.status(503), at: .oauthMetadata)
        await assertSessionError(.invalidDiscoveryDocument) { _ = try await harness.client.discover() }
        XCTAssertEqual(harness.provider.requests(to: .discovery).count, 0)
    }

    func testAnIDTokenFromAServerWithoutKeysIsRefused() async throws {
        // An OAuth-only document, from a server that nevertheless signs ID tokens.
        let harness = try makeLocalHarness()
        let served = try await CurlTransport(timeout: 5).send(HTTPRequest(method: "GET", url: harness.provider.url(of: .oauthMetadata)))
        var document = try XCTUnwrap(try JSONSerialization.jsonObject(with: served.body) as? [String: Any])
        document["jwks_uri"] = nil
        harness.provider.inject(.status(200, body: String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self)),
                                at: .oauthMetadata, times: nil)
        let configuration = try SessionConfiguration(issuer: harness.provider.issuer, clientID: LocalProvider.Client.demo.id,
                                                     redirectURI: try XCTUnwrap(LocalProvider.Client.demo.redirectURIs.first),
                                                     metadataDiscovery: .authorizationServer)
        let client = SessionClient(configuration: configuration, clock: harness.clock)
        await assertSessionError(.idTokenUnknownKey) { _ = try await client.signIn(scopes: ["openid"], agent: HeadlessUserAgent()) }
        let tokens = await client.tokens
        XCTAssertNil(tokens)
    }
}
