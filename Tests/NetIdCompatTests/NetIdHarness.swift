import Dispatch
import Foundation
import LegacySessionReaders
import NetIdCompat
import SessionCore
import SessionFacadeTesting
import SessionPermissions
import SessionFacade
import SessionTesting
import XCTest

/// A NetIdService on its own SessionService and callback queue, a LocalProvider over loopback,
/// and a legacy app (L1) recording its callbacks; more listeners are L2, L3, ...
///
/// Shared state: every harness makes its own `NetIdService` on its own `SessionService` (never
/// `NetIdService.sharedInstance`, which only the public-API test compares by identity), and tests
/// read state only after the callback they check has been delivered (`waitForEvents`); a test that
/// must observe a moment before delivery holds the callback queue (`suspend`) to make it one.
struct NetIdHarness {
    let provider: LocalProvider
    let netId: NetIdService
    let app: LegacyNetIdApp
    let log: CallbackLog
    let config: NetIdConfig
    let store: InMemoryTokenStore
    static let redirectURI = URL(string: "com.example.sessiondemo:/callback")!

    /// The access token and the ID token's claims of the stored session.
    func storedTokens() async throws -> (access: String, idTokenClaims: [String: JSONValue]?) {
        let loaded = try await store.load()
        let tokens = try XCTUnwrap(loaded)
        return (tokens.accessToken, try tokens.idToken.map { try IDToken($0).claims })
    }

    /// Initializes, signs in with `flow`, and returns how many events that took.
    func signedIn(_ flow: NetIdAuthFlow = .LoginPermission) async -> Int {
        app.initialize(with: config)
        app.authorize(flow)
        return await log.waitForEvents(2).count
    }

    /// The events after the first `count`.
    func events(after count: Int) -> [String] { Array(log.transcript.dropFirst(count)) }

    /// Takes the agent away: authorization URLs come out of the returned iterator, and the app
    /// hands redirects back with `resumeSession`, as an iOS app does from its URL handler.
    func openedAuthorizationURLs() -> AsyncStream<URL>.Iterator {
        netId.authorizationAgent = nil
        let (urls, sink) = AsyncStream.makeStream(of: URL.self)
        netId.service.authorizationURLHandler = { sink.yield($0) }
        return urls.makeAsyncIterator()
    }

    /// What the browser would bring back for `url`: the provider's redirect after consent.
    func redirect(after url: URL?) async throws -> URL {
        try await HeadlessUserAgent().authorize(url: try XCTUnwrap(url), redirectURI: Self.redirectURI)
    }
}

extension XCTestCase {
    func makeNetIdHarness(store: InMemoryTokenStore = InMemoryTokenStore(), listeners: Int = 1, transportTimeout: TimeInterval = 5,
                          permissionCenter: PermissionCenterEndpoints? = nil) throws -> NetIdHarness {
        let provider = try LocalProvider(clock: SystemClock())
        addTeardownBlock { provider.stop() }
        let service = SessionService(store: { _ in store }, transport: CurlTransport(timeout: transportTimeout))
        let queue = DispatchQueue(label: "netid-tests.callbacks")
        CallbackLog.name(queue, "netid-tests.callbacks")
        service.callbackQueue = queue
        let netId = NetIdService(service: service)
        netId.authorizationAgent = HeadlessUserAgent()
        // Never netID's real suite: a suite no test writes (NetIdLegacySessionTests use their own).
        netId.legacySession = NetIdLegacySession(suite: "netid-tests-nothing-\(UUID().uuidString)")
        let log = CallbackLog()
        let app = LegacyNetIdApp(netIdService: netId) { log.record("L1", $0, $1) }
        for index in 1..<listeners {
            netId.registerListener(LegacyNetIdApp(netIdService: netId) { log.record("L\(index + 1)", $0, $1) })
        }
        let config = NetIdConfig(clientId: "session-demo", redirectUri: NetIdHarness.redirectURI.absoluteString, claims: nil,
                                 promptWeb: nil, loginLayerConfig: nil, permissionLayerConfig: nil, issuer: provider.issuer,
                                 permissionCenter: try permissionCenter ?? provider.permissionCenter)
        return NetIdHarness(provider: provider, netId: netId, app: app, log: log, config: config, store: store)
    }
}
