import ClientTestSupport
import Foundation
import SessionCore
import SessionTesting
import SessionWebApp
import XCTest

/// Ending web sessions: a browser's sign-out (refused cross-site), every session of a user,
/// expiry and the sweep, and the clients an instance lets go of.
final class WebSignOutTests: XCTestCase {
    private var clock: ManualClock!
    private var provider: LocalProvider!
    private var store: InMemoryWebSessionStore!
    private var layer: WebSessions!

    override func setUp() async throws {
        clock = ManualClock()
        provider = try LocalProvider(clock: clock) {
            $0.clients = [LocalProvider.Client(id: "web-app", redirectURIs: [WebBrowser.callback])]
            $0.users = [.erika, .max]
            $0.accessTokenLifetime = 24 * 3600
        }
        store = InMemoryWebSessionStore()
        layer = try makeLayer { _ in }
    }

    override func tearDown() {
        provider.stop()
    }

    private func makeLayer(_ configure: (inout WebSessionOptions) -> Void) throws -> WebSessions {
        var options = WebSessionOptions(appOrigin: WebBrowser.origin)
        configure(&options)
        return try WebSessions(provider: OpenIDProvider(configuration: try provider.configuration(), transport: CurlTransport(timeout: 5), clock: clock),
                               store: store, pending: .store(InMemoryPendingAuthorizationStore()), options: options)
    }

    private let signOutURL = URL(string: "https://app.example.test/signout")!

    func testASignOutFromTheAppsOwnPageEndsTheSessionAndRevokesItsGrant() async throws {
        var browser = WebBrowser()
        let signIn = try await browser.signIn(layer)
        let signOut = try await layer.signOut(browser.request("POST", signOutURL, origin: "https://app.example.test"))
        XCTAssertEqual(signOut.response.status, 303)
        XCTAssertEqual(signOut.response.location, URL(string: "https://app.example.test/"))
        XCTAssertEqual(signOut.response.setCookies, ["__Host-session=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0"])
        XCTAssertEqual(signOut.ended?.id, signIn.session.id)
        guard case .success? = signOut.ended?.revocation else { return XCTFail("revoked") }
        let after = try await layer.session(for: browser.request())
        XCTAssertNil(after)
        XCTAssertEqual(provider.requests(to: .revocation).count, 1)
    }

    func testASignOutFromAnotherSiteIsRefusedAndEndsNothing() async throws {
        var browser = WebBrowser()
        try await browser.signIn(layer)
        for request in [browser.request("POST", signOutURL, origin: "https://evil.example"),
                        browser.request("POST", signOutURL, origin: "null"),
                        browser.request("POST", signOutURL, fetchSite: "cross-site"),
                        browser.request("POST", signOutURL, fetchSite: "same-site"),
                        browser.request("POST", signOutURL)] {
            let refused = try await layer.signOut(request)
            XCTAssertEqual(refused.response.status, 403)
            XCTAssertNil(refused.ended)
            XCTAssertTrue(refused.response.setCookies.isEmpty)
        }
        let still = try await layer.session(for: browser.request())
        XCTAssertNotNil(still, "the session lives on")
        XCTAssertEqual(provider.requests(to: .revocation).count, 0)
    }

    func testABrowserThatSendsNoOriginSignsOutWithItsSessionsFormToken() async throws {
        var browser = WebBrowser()
        try await browser.signIn(layer)
        let session = try await layer.session(for: browser.request())
        var other = WebBrowser()
        try await other.signIn(layer)
        let othersToken = try await layer.session(for: other.request())?.csrfToken
        let wrong = try await layer.signOut(browser.request("POST", signOutURL), csrfToken: othersToken)
        XCTAssertEqual(wrong.response.status, 403, "another session's token is not this one's")
        let right = try await layer.signOut(browser.request("POST", signOutURL), csrfToken: session?.csrfToken)
        XCTAssertEqual(right.response.status, 303)
        XCTAssertEqual(right.ended?.id, session?.id)
        let sameOrigin = try await layer.signOut(other.request("POST", signOutURL, fetchSite: "same-origin"))
        XCTAssertEqual(sameOrigin.response.status, 303)
    }

    func testWhenRevocationFailsTheSessionEndsHereAllTheSameAndSaysSo() async throws {
        var browser = WebBrowser()
        try await browser.signIn(layer)
        provider.inject(.status(503), at: .revocation)
        let signOut = try await layer.signOut(browser.request("POST", signOutURL, origin: "https://app.example.test"))
        XCTAssertEqual(signOut.response.status, 303)
        guard case .failure(let error)? = signOut.ended?.revocation else { return XCTFail("the failed revocation is reported") }
        XCTAssertEqual(error.process, .endSession)
        let after = try await layer.session(for: browser.request())
        XCTAssertNil(after, "ended here though the provider did not revoke")
    }

    func testSignOutEverywhereEndsEverySessionOfTheUserAndNoOneElses() async throws {
        var laptop = WebBrowser(), phone = WebBrowser(), maxs = WebBrowser()
        try await laptop.signIn(layer)
        try await phone.signIn(layer)
        provider.scriptConsent(.approveAs(subject: "max"))
        try await maxs.signIn(layer)
        let listed = try await layer.sessions(ofSubject: "erika")
        XCTAssertEqual(listed.count, 2)
        let ended = try await layer.endSessions(ofSubject: "erika")
        XCTAssertEqual(Set(ended.map(\.id)), Set(listed.map(\.id)))
        for browser in [laptop, phone] {
            let session = try await layer.session(for: browser.request())
            XCTAssertNil(session)
        }
        let max = try await layer.session(for: maxs.request())
        XCTAssertEqual(max?.subject, "max")
    }

    func testASessionEndsWhenIdleTooLongOrTooOldHoweverMuchItIsUsed() async throws {
        var idle = WebBrowser(), busy = WebBrowser()
        try await idle.signIn(layer)
        try await busy.signIn(layer)
        // Used every 20 minutes, the busy one lives on; the idle one ends after 30.
        for _ in 0..<2 {
            clock.advance(by: 20 * 60)
            let alive = try await layer.session(for: busy.request())
            XCTAssertNotNil(alive)
        }
        let idleOne = try await layer.session(for: idle.request())
        XCTAssertNil(idleOne, "idle for 40 minutes")
        // However busy, a session ends 12 hours after its sign-in.
        for _ in 0..<34 {
            clock.advance(by: 20 * 60)
            _ = try await layer.session(for: busy.request())
        }
        let tooOld = try await layer.session(for: busy.request())
        XCTAssertNil(tooOld, "older than 12 hours")
    }

    func testTheSweepDeletesExpiredSessionsAndRevokesThemWhenAsked() async throws {
        layer = try makeLayer { $0.revokesExpiredSessions = true }
        var browsers = [WebBrowser(), WebBrowser(), WebBrowser()]
        for index in browsers.indices { try await browsers[index].signIn(layer) }
        clock.advance(by: 10 * 60)
        var fresh = WebBrowser()
        try await fresh.signIn(layer)
        let none = try await layer.sweep()
        XCTAssertEqual(none.deleted, 0)
        clock.advance(by: 25 * 60)
        let swept = try await layer.sweep()
        XCTAssertEqual(swept.deleted, 3)
        XCTAssertEqual(swept.revocationsFailed, 0)
        XCTAssertEqual(provider.requests(to: .revocation).count, 3)
        let left = try await layer.sessions(ofSubject: "erika")
        XCTAssertEqual(left.count, 1)
    }

    /// Signs `browser` in through `layer`; returns a weak hold on the session's client.
    private func signIn(_ browser: inout WebBrowser, _ layer: WebSessions) async throws -> WeakClient {
        WeakClient(try await browser.signIn(layer).session.client)
    }

    /// An instance holds a session's client while the session is used there, and lets go of it
    /// once it is not, whoever ended it.
    func testAnInstanceLetsGoOfTheClientOfASessionAnotherInstanceEndedAtItsNextSweep() async throws {
        let first = try makeLayer { _ in }, second = try makeLayer { _ in }
        var browser = WebBrowser()
        let held = try await signIn(&browser, first)
        XCTAssertNotNil(held.client, "the instance that served the session keeps its client")
        // The browser's next request reaches the other instance, which signs it out.
        let signOut = try await second.signOut(browser.request("POST", signOutURL, origin: "https://app.example.test"))
        XCTAssertNotNil(signOut.ended)
        _ = try await first.sweep()
        XCTAssertNotNil(held.client, "used here less than the idle timeout ago: kept")
        clock.advance(by: 31 * 60)
        let swept = try await first.sweep()
        XCTAssertEqual(swept.deleted, 0, "nothing of the store was left to delete")
        XCTAssertNil(held.client, "no request will bring this session here again; its client is let go")
    }

    func testClientsUnusedForTheIdleTimeoutAreLetGoAsNewSessionsArriveWithoutASweep() async throws {
        var early: [WeakClient] = []
        var keptInUse = WebBrowser()
        let inUse = try await signIn(&keptInUse, layer)
        for _ in 0..<70 {
            var browser = WebBrowser()
            early.append(try await signIn(&browser, layer))
        }
        clock.advance(by: 20 * 60)
        let stillUsed = try await layer.session(for: keptInUse.request())
        XCTAssertNotNil(stillUsed)
        clock.advance(by: 15 * 60)
        for _ in 0..<70 {
            var browser = WebBrowser()
            _ = try await signIn(&browser, layer)
        }
        XCTAssertEqual(early.filter { $0.client != nil }.count, 0, "35 minutes unused here: every one let go")
        XCTAssertNotNil(inUse.client, "used 15 minutes ago: kept")
        let again = try await layer.session(for: keptInUse.request())
        XCTAssertTrue(again?.client === inUse.client, "the session in use keeps its one client")
    }

    func testARefreshOfAWebSessionIsKeptInItsStoreAndOneLandingAfterSignOutBringsNothingBack() async throws {
        var browser = WebBrowser()
        let signIn = try await browser.signIn(layer)
        let first = try await signIn.session.client.validTokens()
        let refreshed = try await signIn.session.client.refresh()
        XCTAssertNotEqual(refreshed.refreshToken, first.refreshToken)
        let kept = try await store.tokenStore(for: signIn.session.id).load()
        XCTAssertEqual(kept?.refreshToken, refreshed.refreshToken, "the rotated refresh token is the store's")
        _ = try await layer.signOut(browser.request("POST", signOutURL, origin: "https://app.example.test"))
        await assertSessionError(.storageFailed) { try await self.store.tokenStore(for: signIn.session.id).save(refreshed) }
        let after = try await layer.session(for: browser.request())
        XCTAssertNil(after)
    }
}

/// A store that cannot delete (its first `failingRemoves` removals fail; all of them by default)
/// or, with `refusesInserts`, keep a new session: everything else goes to the store it wraps.
private struct UndeletableStore: WebSessionStore {
    let inner = InMemoryWebSessionStore()
    var refusesInserts = false
    let failingRemoves = Locked(Int.max)

    init(refusesInserts: Bool = false, failingRemoves: Int = .max) {
        self.refusesInserts = refusesInserts
        self.failingRemoves.withLock { $0 = failingRemoves }
    }

    func insert(_ record: WebSessionRecord, tokens: SessionTokens) async throws {
        if refusesInserts { throw SessionError(.storageFailed, process: .authentication, message: "the database is unreachable") }
        try await inner.insert(record, tokens: tokens)
    }
    func record(_ id: WebSessionID) async throws -> WebSessionRecord? { try await inner.record(id) }
    func touch(_ id: WebSessionID, at date: Date) async throws { try await inner.touch(id, at: date) }
    func remove(_ id: WebSessionID) async throws -> RemovedWebSession? {
        let fails = failingRemoves.withLock { left in
            defer { left = max(left, 1) - 1 }
            return left > 0
        }
        if fails { throw SessionError(.storageFailed, process: .endSession, message: "the database is unreachable") }
        return try await inner.remove(id)
    }
    func records(ofSubject subject: String) async throws -> [WebSessionRecord] { try await inner.records(ofSubject: subject) }
    func records(ofProviderSession id: String) async throws -> [WebSessionRecord] { try await inner.records(ofProviderSession: id) }
    func removeExpired(idleBefore: Date, createdBefore: Date, limit: Int) async throws -> [RemovedWebSession] { [] }
    func noteLogoutToken(_ id: String, until expiry: Date) async throws -> Bool { try await inner.noteLogoutToken(id, until: expiry) }
    func forgetLogoutToken(_ id: String) async throws { try await inner.forgetLogoutToken(id) }
    func tokenStore(for id: WebSessionID) -> TokenStore { inner.tokenStore(for: id) }
}

final class WebSignOutStoreFailureTests: XCTestCase {
    func testASignOutTheStoreCannotCarryOutSaysSoInsteadOfClaimingTheSessionEnded() async throws {
        let provider = try LocalProvider(clock: SystemClock()) { $0.clients = [LocalProvider.Client(id: "web-app", redirectURIs: [WebBrowser.callback])] }
        defer { provider.stop() }
        let layer = try WebSessions(provider: OpenIDProvider(configuration: try provider.configuration(), transport: CurlTransport(timeout: 5)),
                                    store: UndeletableStore(), pending: .sealed(try AuthorizationSealingKey.generate()),
                                    options: WebSessionOptions(appOrigin: WebBrowser.origin))
        var browser = WebBrowser()
        try await browser.signIn(layer)
        await assertSessionError(.storageFailed) {
            _ = try await layer.signOut(browser.request("POST", URL(string: "https://app.example.test/signout")!, origin: "https://app.example.test"))
        }
        let still = try await layer.session(for: browser.request())
        XCTAssertNotNil(still, "the session was not ended, and nothing said it was")
        XCTAssertEqual(provider.requests(to: .revocation).count, 0)
    }

    func testABackChannelLogoutTheStoreCouldNotCarryOutIsTakenWhenDeliveredAgain() async throws {
        let provider = try LocalProvider(clock: SystemClock()) { $0.clients = [LocalProvider.Client(id: "web-app", redirectURIs: [WebBrowser.callback])] }
        defer { provider.stop() }
        let layer = try WebSessions(provider: OpenIDProvider(configuration: try provider.configuration(), transport: CurlTransport(timeout: 5)),
                                    store: UndeletableStore(failingRemoves: 1), pending: .sealed(try AuthorizationSealingKey.generate()),
                                    options: WebSessionOptions(appOrigin: WebBrowser.origin))
        var browser = WebBrowser()
        let session = try await browser.signIn(layer).session
        let token = try provider.logoutToken(subject: try XCTUnwrap(session.subject), sessionID: session.providerSessionID)
        let logoutURL = URL(string: "https://app.example.test/backchannel-logout")!
        let body = Data("logout_token=\(token)".utf8)

        let failed = await layer.backChannelLogout(WebRequest(method: "POST", url: logoutURL), body: body)
        XCTAssertEqual(failed.response.status, 400)
        XCTAssertEqual(failed.refusal?.code, .storageFailed)
        let still = try await layer.session(for: browser.request())
        XCTAssertNotNil(still)

        let again = await layer.backChannelLogout(WebRequest(method: "POST", url: logoutURL), body: body)
        XCTAssertEqual(again.response.status, 200, "the same token, delivered again, is not a replay of a logout that happened")
        XCTAssertEqual(again.ended.map(\.id), [session.id])
        let after = try await layer.session(for: browser.request())
        XCTAssertNil(after)
        let replay = await layer.backChannelLogout(WebRequest(method: "POST", url: logoutURL), body: body)
        XCTAssertEqual(replay.refusal?.code, .invalidLogoutToken, "once carried out, the token is taken no more")
    }

    func testASignInTheStoreCannotKeepRevokesItsTokensInsteadOfLeavingThemLive() async throws {
        let provider = try LocalProvider(clock: SystemClock()) { $0.clients = [LocalProvider.Client(id: "web-app", redirectURIs: [WebBrowser.callback])] }
        defer { provider.stop() }
        let layer = try WebSessions(provider: OpenIDProvider(configuration: try provider.configuration(), transport: CurlTransport(timeout: 5)),
                                    store: UndeletableStore(refusesInserts: true), pending: .sealed(try AuthorizationSealingKey.generate()),
                                    options: WebSessionOptions(appOrigin: WebBrowser.origin))
        var browser = WebBrowser()
        let callback = try await browser.signInAtProvider(layer)
        await assertSessionError(.storageFailed) { _ = try await layer.completeSignIn(callback) }
        XCTAssertEqual(provider.requests(to: .revocation).count, 1, "the grant nobody holds is revoked")
    }
}

/// A weak hold on a session's client: nil once nothing else holds it.
private final class WeakClient {
    weak var client: SessionClient?

    init(_ client: SessionClient) {
        self.client = client
    }
}
