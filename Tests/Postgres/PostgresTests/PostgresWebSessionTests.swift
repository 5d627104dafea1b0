import ClientTestSupport
import Foundation
import SessionCore
@testable import SessionPostgres
import SessionTesting
import SessionWebApp
import XCTest

/// Web sessions of two instances on one PostgreSQL: either serves any session, and a session ended
/// on one — signed out, logged out by the provider, swept — is gone on the other.
final class PostgresWebSessionTests: XCTestCase {
    private var clock: ManualClock!
    private var provider: LocalProvider!
    private var configuration: SessionConfiguration!

    override func setUpWithError() throws {
        clock = ManualClock()
        provider = try LocalProvider(clock: clock) {
            $0.clients = [LocalProvider.Client(id: "web-\(UUID().uuidString)", redirectURIs: [WebBrowser.callback])]
            $0.users = [.erika, .max]
        }
        configuration = try provider.configuration()
    }

    override func tearDown() {
        provider.stop()
    }

    /// One instance of the application: its own provider object, pool and layer, on the shared database.
    private func instance() throws -> WebSessions {
        let database = try PostgresHarness.database()
        return try WebSessions(provider: OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 5), clock: clock),
                               store: PostgresWebSessionStore(database: database, configuration: configuration),
                               pending: .store(PostgresPendingAuthorizations(database: database, configuration: configuration)),
                               options: WebSessionOptions(appOrigin: WebBrowser.origin))
    }

    private func webRows() async throws -> [[String?]] {
        try await PostgresHarness.admin().rows("SELECT id, subject_digest, record FROM session_service_web_sessions WHERE client_id = $1",
                                               [configuration.clientID])
    }

    func testASignInBegunOnOneInstanceIsFinishedOnTheOtherAndEitherServesIt() async throws {
        let (first, second) = (try instance(), try instance())
        var browser = WebBrowser()
        let callback = try await browser.signInAtProvider(first)
        let signIn = try await second.completeSignIn(callback)
        browser.receive(signIn.response)
        for layer in [first, second] {
            let session = try await layer.session(for: browser.request())
            XCTAssertEqual(session?.subject, "erika")
            let user = try await session?.userInfo()
            XCTAssertEqual(user?.sub, "erika")
        }
        let rows = try await webRows()
        XCTAssertEqual(rows.count, 1)
        let identifier = try XCTUnwrap(browser.cookies["__Host-session"])
        for column in rows[0] {
            XCTAssertFalse(column?.contains(identifier) ?? false, "no column holds the cookie's identifier")
            XCTAssertFalse(column?.contains("erika") ?? false, "nor the subject in the clear")
        }
    }

    func testASignOutOnOneInstanceEndsTheSessionOnTheOther() async throws {
        let (first, second) = (try instance(), try instance())
        var browser = WebBrowser()
        try await browser.signIn(first)
        let served = try await second.session(for: browser.request())
        XCTAssertNotNil(served)
        let signOut = try await first.signOut(browser.request("POST", URL(string: "https://app.example.test/signout")!, origin: "https://app.example.test"))
        guard case .success? = signOut.ended?.revocation else { return XCTFail("ended and revoked") }
        let after = try await second.session(for: browser.request())
        XCTAssertNil(after)
        let rows = try await webRows()
        XCTAssertEqual(rows.count, 0)
        let tokens = try await PostgresHarness.admin().rows("SELECT count(*) FROM session_service_sessions WHERE client_id = $1",
                                                            [configuration.clientID])
        XCTAssertEqual(tokens, [["0"]], "its tokens' row went with it")
    }

    func testABackChannelLogoutToOneInstanceEndsTheSessionOnEveryOneAndIsTakenOnce() async throws {
        let (first, second) = (try instance(), try instance())
        var erika = WebBrowser(), max = WebBrowser()
        let signIn = try await erika.signIn(first)
        provider.scriptConsent(.approveAs(subject: "max"))
        try await max.signIn(first)
        let token = try provider.logoutToken(subject: "erika", sessionID: signIn.session.providerSessionID, clientID: configuration.clientID)
        let url = URL(string: "https://app.example.test/backchannel-logout")!
        let logout = await second.backChannelLogout(WebRequest(method: "POST", url: url), body: Data("logout_token=\(token)".utf8))
        XCTAssertEqual(logout.response.status, 200, logout.refusal?.message ?? "")
        XCTAssertEqual(logout.ended.map(\.id), [signIn.session.id])
        let gone = try await first.session(for: erika.request())
        XCTAssertNil(gone, "ended on the instance that served it")
        let maxs = try await first.session(for: max.request())
        XCTAssertEqual(maxs?.subject, "max")
        let replay = await first.backChannelLogout(WebRequest(method: "POST", url: url), body: Data("logout_token=\(token)".utf8))
        XCTAssertEqual(replay.response.status, 400, "the other instance noted its jti")
    }

    func testALogoutTokenForgottenOnOneInstanceIsTakenOnTheOther() async throws {
        let database = try PostgresHarness.database()
        let (first, second) = (PostgresWebSessionStore(database: database, configuration: configuration),
                               PostgresWebSessionStore(database: try PostgresHarness.database(), configuration: configuration))
        let until = Date().addingTimeInterval(300)
        let firstTime = try await first.noteLogoutToken("jti-1", until: until)
        XCTAssertTrue(firstTime)
        let replayed = try await second.noteLogoutToken("jti-1", until: until)
        XCTAssertFalse(replayed)
        try await first.forgetLogoutToken("jti-1")
        let takenAgain = try await second.noteLogoutToken("jti-1", until: until)
        XCTAssertTrue(takenAgain, "a logout that was not carried out is taken when delivered again")
    }

    /// A logout is one statement on its token's key however many were noted before; the sweep
    /// forgets the tokens an hour past their expiry.
    func testNotingALogoutTokenTouchesOnlyItsRowAndTheSweepForgetsOldOnes() async throws {
        let store = PostgresWebSessionStore(database: try PostgresHarness.database(), configuration: configuration)
        let admin = try PostgresHarness.admin()
        let (issuer, clientID) = (configuration.issuer.absoluteString, configuration.clientID)
        _ = try await admin.rows("""
            INSERT INTO session_service_logout_tokens (issuer, client_id, jti_digest, expires_at)
            SELECT $1, $2, 'old-' || n, extract(epoch FROM now()) - 7200 FROM generate_series(1, 50) AS n
            """, [issuer, clientID])
        func noted() async throws -> Int {
            let rows = try await admin.rows("SELECT count(*) FROM session_service_logout_tokens WHERE issuer = $1 AND client_id = $2", [issuer, clientID])
            return rows.first?.first.flatMap { $0 }.flatMap { Int($0) } ?? -1
        }
        let taken = try await store.noteLogoutToken("jti-fresh", until: Date().addingTimeInterval(300))
        XCTAssertTrue(taken)
        let afterNoting = try await noted()
        XCTAssertEqual(afterNoting, 51, "noting a token reads and writes its own row only")
        _ = try await store.removeExpired(idleBefore: clock.now(), createdBefore: clock.now(), limit: 10)
        let afterSweep = try await noted()
        XCTAssertEqual(afterSweep, 1, "the sweep forgot the 50 an hour past their expiry, and kept the one still live")
        let replayed = try await store.noteLogoutToken("jti-fresh", until: Date().addingTimeInterval(300))
        XCTAssertFalse(replayed)
    }

    func testRequestsOnBothInstancesNeedingARefreshShareOne() async throws {
        let (first, second) = (try instance(), try instance())
        var browser = WebBrowser()
        let signIn = try await browser.signIn(first)
        let tokens = try await signIn.session.client.validTokens()
        try await signIn.session.client.setTokens(tokens.withExpiry(clock.now().addingTimeInterval(-60)))
        let sessions = [try await first.session(for: browser.request()), try await second.session(for: browser.request())].compactMap { $0 }
        XCTAssertEqual(sessions.count, 2)
        let exchanged = provider.requests(to: .token).count
        let refreshed = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<20 {
                let session = sessions[index % 2]
                group.addTask { try await session.client.validTokens().accessToken }
            }
            var all: Set<String> = []
            for try await token in group { all.insert(token) }
            return all
        }
        XCTAssertEqual(provider.requests(to: .token).count - exchanged, 1, "one refresh for both instances")
        XCTAssertEqual(refreshed.count, 1, "every request got the same new access token")
        XCTAssertNotEqual(refreshed.first, tokens.accessToken)
    }

    /// The database is a neighbour: a role that can write the table cannot move a session's
    /// creation time, which bounds its life, without its row ceasing to open.
    func testACreationTimeMovedInTheTableIsNotTaken() async throws {
        let layer = try instance()
        var browser = WebBrowser()
        try await browser.signIn(layer)
        let found = try await layer.session(for: browser.request())
        XCTAssertNotNil(found)
        _ = try await PostgresHarness.admin().rows("UPDATE session_service_web_sessions SET created_at = created_at + 3600 WHERE client_id = $1",
                                                   [configuration.clientID])
        await assertSessionError(.storageCorrupt) { _ = try await layer.session(for: browser.request()) }
    }

    /// A row sealed before the creation time was sealed with it still opens, by its column.
    func testARowSealedWithoutItsCreationTimeStillOpens() async throws {
        let layer = try instance()
        var browser = WebBrowser()
        let signIn = try await browser.signIn(layer)
        let database = try PostgresHarness.admin()
        let row = PostgresRowSeal.Row(table: "session_service_web_sessions",
                                      columns: [configuration.issuer.absoluteString, configuration.clientID, signIn.session.id.digest])
        let older = try database.seal.seal(Data(#"{"sid":"\#(signIn.session.providerSessionID ?? "")","sub":"erika"}"#.utf8), for: row)
        _ = try await database.rows("UPDATE session_service_web_sessions SET record = $1 WHERE client_id = $2", [older, configuration.clientID])
        let found = try await layer.session(for: browser.request())
        XCTAssertEqual(found?.subject, "erika")
        XCTAssertEqual(found?.createdAt, signIn.session.createdAt)
    }

    func testTheSweepOnOneInstanceDeletesWhatExpiredOnEvery() async throws {
        let (first, second) = (try instance(), try instance())
        var old = WebBrowser(), fresh = WebBrowser()
        try await old.signIn(second)
        clock.advance(by: 20 * 60)
        try await fresh.signIn(second)
        clock.advance(by: 15 * 60)
        let swept = try await first.sweep()
        XCTAssertEqual(swept.deleted, 1)
        let gone = try await second.session(for: old.request())
        XCTAssertNil(gone)
        let kept = try await second.session(for: fresh.request())
        XCTAssertNotNil(kept)
    }
}
