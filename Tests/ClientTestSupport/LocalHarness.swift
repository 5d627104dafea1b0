import Foundation
import SessionCore
import SessionFacade
import SessionPermissions
import SessionTesting
import XCTest

/// A `LocalProvider` on loopback and a `SessionClient` talking to it over real HTTP.
package struct LocalHarness {
    package let provider: LocalProvider
    package let client: SessionClient
    package let store: RecordingStore
    package let clock: ManualClock

    /// The stored tokens, which the fault tests compare before and after.
    package var stored: SessionTokens? { store.contents }

    /// Signs in for the scopes of netID's `flow` (LocalProvider plays netID).
    package func signIn(_ flow: AuthFlow = .loginPermission) async throws -> SessionTokens {
        try await client.signIn(scopes: flow.scopes(with: client.configuration), agent: HeadlessUserAgent())
    }

    /// The provider's permission center, for this harness's client.
    package func permissions() throws -> PermissionCenter {
        PermissionCenter(client: client, endpoints: try provider.permissionCenter)
    }

    /// From now on serves the provider's discovery document without `members`, and no RFC 8414
    /// document: a provider that lacks those features.
    package func serveDiscovery(without members: [String]) async throws {
        let served = try await CurlTransport(timeout: 5).send(HTTPRequest(method: "GET", url: provider.url(of: .discovery)))
        guard var document = try JSONSerialization.jsonObject(with: served.body) as? [String: Any] else {
            throw SessionError(.invalidDiscoveryDocument, process: .configuration, message: "the provider's document is not an object")
        }
        for member in members { document[member] = nil }
        let edited = String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self)
        provider.inject(.status(200, body: edited), at: .discovery, times: nil)
        provider.inject(.status(404), at: .oauthMetadata, times: nil)
    }

    /// A client of the harness's registration that pushes its authorization requests (PAR) and
    /// binds its tokens to a DPoP key as told, kept in `store`.
    package func client(pushes: Bool = false, dpop: DPoPMode = .off, acceptsBearerForDPoP: Bool = false,
                        store: TokenStore = InMemoryTokenStore()) throws -> SessionClient {
        let base = client.configuration
        let configuration = try SessionConfiguration(issuer: base.issuer, clientID: base.clientID, redirectURI: base.redirectURI,
                                                     pushesAuthorizationRequests: pushes, dpop: dpop, acceptsBearerForDPoP: acceptsBearerForDPoP)
        return SessionClient(configuration: configuration, store: store, transport: CurlTransport(timeout: 5), clock: clock)
    }

    /// Another client on the same provider, e.g. a later process.
    package func secondClient(store: TokenStore = InMemoryTokenStore()) throws -> SessionClient {
        SessionClient(configuration: client.configuration, store: store, transport: CurlTransport(timeout: 5), clock: clock)
    }
}

extension XCTestCase {
    /// Starts a provider (stopped when the test ends) and a client for its demo client.
    package func makeLocalHarness(transportTimeout: TimeInterval = 5, redirectURI: URL? = nil,
                          edit: (inout LocalProvider.Options) -> Void = { _ in }) throws -> LocalHarness {
        let clock = ManualClock()
        let provider = try LocalProvider(clock: clock, configure: edit)
        addTeardownBlock { provider.stop() }
        let store = RecordingStore()
        let client = SessionClient(configuration: try provider.configuration(redirectURI: redirectURI), store: store,
                                   transport: CurlTransport(timeout: transportTimeout), clock: clock)
        return LocalHarness(provider: provider, client: client, store: store, clock: clock)
    }
}
