import ClientTestSupport
import Foundation
import SessionCore
import SessionTesting
import XCTest

/// RFC 7591 against LocalProvider's `/register` over loopback, and the answers a client must not take.
final class DynamicClientRegistrationTests: XCTestCase {
    private let redirectURI = URL(string: "http://127.0.0.1/callback")!

    private func makeServer() async throws -> (LocalProvider, ProviderMetadata) {
        let provider = try LocalProvider(clock: ManualClock()) {
            $0.servesOpenIDConnect = false
            $0.offersDynamicRegistration = true
        }
        addTeardownBlock { provider.stop() }
        return (provider, try await AuthorizationServerDiscovery().metadata(for: provider.issuer))
    }

    func testARegisteredClientSignsIn() async throws {
        let (provider, server) = try await makeServer()
        XCTAssertEqual(server.registrationEndpoint, provider.url(of: .registration))
        let registered = try await DynamicClientRegistration().register(at: server, metadata: ClientMetadata(redirectURIs: [redirectURI]))
        XCTAssertEqual(registered.issuer, provider.issuer.absoluteString)
        XCTAssertNil(registered.clientSecret, "a public client gets no secret")
        XCTAssertNotNil(registered.registrationAccessToken)
        XCTAssertFalse(registered.description.contains(registered.registrationAccessToken ?? "-"))
        let configuration = try SessionConfiguration(issuer: provider.issuer, clientID: registered.clientID, redirectURI: redirectURI,
                                                     metadataDiscovery: .authorizationServer)
        let tokens = try await SessionClient(configuration: configuration).signIn(agent: HeadlessUserAgent())
        XCTAssertNotNil(tokens.refreshToken)
    }

    func testAnswersThatRegisterSomethingElseAreRefused() async throws {
        let (provider, server) = try await makeServer()
        let metadata = ClientMetadata(redirectURIs: [redirectURI])
        provider.inject(.status(201, body: #"{"redirect_uris":["http://127.0.0.1/callback"]}"#), at: .registration)
        await assertSessionError(.invalidResponse) { _ = try await DynamicClientRegistration().register(at: server, metadata: metadata) }
        provider.inject(.status(201, body: #"{"client_id":"x","redirect_uris":["https://attacker.example/cb"]}"#), at: .registration)
        await assertSessionError(.invalidResponse) { _ = try await DynamicClientRegistration().register(at: server, metadata: metadata) }
        provider.inject(.malformedBody, at: .registration)
        await assertSessionError(.invalidResponse) { _ = try await DynamicClientRegistration().register(at: server, metadata: metadata) }
        await assertSessionError(.oauthError) {
            _ = try await DynamicClientRegistration().register(at: server, metadata: ClientMetadata(redirectURIs: [URL(string: "http://example.com/cb")!]))
        }
    }

    func testAServerWithoutARegistrationEndpointIsSaidToTakeNone() async throws {
        let provider = try LocalProvider(clock: ManualClock()) { $0.servesOpenIDConnect = false }
        addTeardownBlock { provider.stop() }
        let server = try await AuthorizationServerDiscovery().metadata(for: provider.issuer)
        await assertSessionError(.unsupportedProviderFeature) {
            _ = try await DynamicClientRegistration().register(at: server, metadata: ClientMetadata(redirectURIs: [self.redirectURI]))
        }
    }
}
