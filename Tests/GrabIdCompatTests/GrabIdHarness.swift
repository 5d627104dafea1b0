import Foundation
import GrabIdCompat
import SessionCore
import SessionFacade
import SessionFacadeTesting
import SessionTesting
import XCTest

/// A GrabIdPartner calling back on the main queue, on a LocalProvider over loopback, and a legacy
/// app recording its completions.
///
/// Shared state: every harness makes a fresh `GrabIdPartner` (never `GrabIdPartner.sharedInstance()`,
/// which only the public-API test compares by identity), and tests read results only after the
/// completion they check has been recorded (`waitForEvents`).
struct GrabIdHarness {
    static let redirectURI = URL(string: "com.example.sessiondemo:/callback")!

    let provider: LocalProvider
    let partner: GrabIdPartner
    let app: LegacyGrabIdApp
    let log: CallbackLog
    let settings: [String: Any]

    var discoveryURL: String { settings["ServiceDiscoveryUrl"] as? String ?? "" }

    /// Takes the agent away: login page URLs come out of the returned iterator, as GrabID showed
    /// them in a Safari view, and the app hands redirects to `exchangeToken`. With `recorded`,
    /// each page shown is also in the log, as `browser.opened()`.
    func openedLoginPages(recorded: Bool = false) -> AsyncStream<URL>.Iterator {
        partner.authorizationAgent = nil
        let (urls, sink) = AsyncStream.makeStream(of: URL.self)
        partner.authorizationURLHandler = { [log] url in
            if recorded { log.record("browser", "opened", "") }
            sink.yield(url)
        }
        return urls.makeAsyncIterator()
    }

    /// The provider's redirect for a login page, after the scripted consent.
    func redirect(after url: URL?) async throws -> URL {
        try await HeadlessUserAgent().authorize(url: try XCTUnwrap(url), redirectURI: Self.redirectURI)
    }
}

extension XCTestCase {
    func makeGrabIdHarness(store: InMemoryTokenStore = InMemoryTokenStore(), agent: AuthorizationAgent? = HeadlessUserAgent(),
                           clock: SessionClock = SystemClock()) throws -> GrabIdHarness {
        let provider = try LocalProvider(clock: clock)
        addTeardownBlock { provider.stop() }
        let partner = GrabIdPartner(clock: clock, makeService: {
            SessionService(store: { _ in store }, transport: CurlTransport(timeout: 5), clock: clock)
        })
        partner.authorizationAgent = agent
        let log = CallbackLog()
        let app = LegacyGrabIdApp(grabIdPartner: partner) { log.record("app", $0, $1) }
        let settings: [String: Any] = [
            "ClientId": "session-demo", "RedirectUrl": GrabIdHarness.redirectURI.absoluteString, "Scope": "openid profile",
            "ServiceDiscoveryUrl": provider.issuer.absoluteString + "/.well-known/openid-configuration",
        ]
        partner.configuration = settings
        return GrabIdHarness(provider: provider, partner: partner, app: app, log: log, settings: settings)
    }
}
