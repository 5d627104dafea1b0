import ClientTestSupport
import Foundation
import SessionCore
@testable import SessionPostgres
import SessionTesting
import XCTest

/// Pending sign-ins in PostgreSQL: begun on one node, finished on another, once, and only by the
/// browser that began them.
final class PendingAuthorizationTests: XCTestCase {
    func testASignInBegunOnOneNodeIsFinishedOnAnotherAndOnlyOnce() async throws {
        let local = try LocalProvider()
        addTeardownBlock { local.stop() }
        let configuration = try local.configuration()
        let firstNode = PostgresPendingAuthorizations(database: try PostgresHarness.database(), configuration: configuration)
        let secondNode = PostgresPendingAuthorizations(database: try PostgresHarness.database(), configuration: configuration)
        let first = SessionClient(provider: OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 5)))
        let (request, binding) = try await first.beginAuthorization(keepingIn: .store(firstNode)).parts
        let kept = try await PostgresHarness.admin().rows("SELECT state_digest FROM session_service_pending_authorizations WHERE issuer = $1",
                                                          [configuration.issuer.absoluteString])
        XCTAssertEqual(kept.count, 1)
        XCTAssertEqual(kept.first?.first??.count, 32, "keyed by a digest of the state")
        XCTAssertNotEqual(kept.first?.first ?? nil, request.state)
        let callback = try await HeadlessUserAgent().authorize(url: request.url, redirectURI: request.redirectURI)

        // Two nodes get the same callback at once: one finishes it, the other finds nothing.
        let servers = [secondNode, firstNode].map { store in
            (store, SessionClient(provider: OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 5))))
        }
        let outcomes = await withTaskGroup(of: String.self) { group in
            for (store, client) in servers {
                group.addTask {
                    do {
                        return try await client.completeAuthorization(callbackURL: callback, keptIn: .store(store), cookie: binding).subject ?? "?"
                    } catch let error as SessionError {
                        return error.code.rawValue
                    } catch {
                        return "\(error)"
                    }
                }
            }
            var all: [String] = []
            for await outcome in group { all.append(outcome) }
            return all.sorted()
        }
        XCTAssertEqual(outcomes, ["erika", "stateMismatch"])
        let left = try await PostgresHarness.admin().rows("SELECT count(*) FROM session_service_pending_authorizations WHERE issuer = $1",
                                                          [configuration.issuer.absoluteString])
        XCTAssertEqual(left, [["0"]], "taken in the transaction that opened it")
    }

    /// Login CSRF across nodes: max begins a sign-in on one node, signs in as himself and hands the
    /// callback to erika's browser, which brings it to another node without max's binding. Nothing
    /// is finished and nothing consumed; max's own browser still finishes it.
    func testACallbackFromAnotherBrowserFinishesNothingOnAnyNodeAndLeavesTheRow() async throws {
        let local = try LocalProvider()
        addTeardownBlock { local.stop() }
        local.scriptConsent(.approveAs(subject: "erika"))
        let configuration = try local.configuration()
        func node() throws -> (SessionClient, PostgresPendingAuthorizations) {
            (SessionClient(provider: OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 5))),
             PostgresPendingAuthorizations(database: try PostgresHarness.database(), configuration: configuration))
        }
        let (attackersNode, attackersStore) = try node()
        let (victimsNode, victimsStore) = try node()
        // An earlier test's provider may have had this port, and so this issuer.
        _ = try await PostgresHarness.admin().rows("DELETE FROM session_service_pending_authorizations WHERE issuer = $1",
                                                   [configuration.issuer.absoluteString])
        let (request, attackersBinding) = try await attackersNode.beginAuthorization(keepingIn: .store(attackersStore)).parts
        let callback = try await HeadlessUserAgent().authorize(url: request.url, redirectURI: request.redirectURI)
        let (_, victimsBinding) = try await victimsNode.beginAuthorization(keepingIn: .store(victimsStore)).parts
        for binding in [nil, victimsBinding] {
            let refused = await sessionError {
                _ = try await victimsNode.completeAuthorization(callbackURL: callback, keptIn: .store(victimsStore), cookie: binding)
            }
            XCTAssertEqual(refused?.code, .stateMismatch)
        }
        let victim = await victimsNode.tokens
        XCTAssertNil(victim, "the victim's browser is not signed in as anyone")
        XCTAssertEqual(local.requests(to: .token).count, 0)
        let kept = try await PostgresHarness.admin().rows("SELECT count(*) FROM session_service_pending_authorizations WHERE issuer = $1",
                                                          [configuration.issuer.absoluteString])
        XCTAssertEqual(kept, [["2"]], "both sign-ins are still there")
        let tokens = try await attackersNode.completeAuthorization(callbackURL: callback, keptIn: .store(attackersStore), cookie: attackersBinding)
        XCTAssertEqual(tokens.subject, "erika")
    }

    /// A sealed sign-in's callback reloaded on a second node sends nothing there: the nodes note
    /// finished sealed sign-ins in the database.
    func testASealedSignInReplayedOnAnotherNodeSendsNothing() async throws {
        let local = try LocalProvider()
        addTeardownBlock { local.stop() }
        let configuration = try local.configuration()
        let key = try AuthorizationSealingKey.generate()
        let shared = PostgresPendingAuthorizations(database: try PostgresHarness.database(), configuration: configuration)
        let first = SessionClient(provider: OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 5)))
        let second = SessionClient(provider: OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 5)))
        let (request, pending) = try await first.beginAuthorization(keepingIn: .sealed(key)).parts
        let callback = try await HeadlessUserAgent().authorize(url: request.url, redirectURI: request.redirectURI)
        _ = try await first.completeAuthorization(callbackURL: callback, keptIn: .sealed(key, finishedIn: shared), cookie: pending)
        let replay = await sessionError {
            _ = try await second.completeAuthorization(callbackURL: callback, keptIn: .sealed(key, finishedIn: PostgresPendingAuthorizations(
                database: try PostgresHarness.database(), configuration: configuration)), cookie: pending)
        }
        XCTAssertEqual(replay?.code, .stateMismatch)
        XCTAssertEqual(local.requests(to: .token).count, 1, "the code was sent once")
        let alive = try await first.refresh()
        XCTAssertEqual(alive.subject, "erika", "the first node's session was not revoked by a replayed code")
    }

    func testExpiredRowsAreSweptAsNewOnesAreKept() async throws {
        let configuration = try PostgresHarness.configuration()
        let store = PostgresPendingAuthorizations(database: try PostgresHarness.database(), configuration: configuration)
        try await store.keep(Data("old".utf8), key: "expired-\(UUID().uuidString)", expiresAt: Date().addingTimeInterval(-5))
        try await store.keep(Data("new".utf8), key: "fresh-\(UUID().uuidString)", expiresAt: Date().addingTimeInterval(600))
        let rows = try await PostgresHarness.admin().rows("SELECT state_digest FROM session_service_pending_authorizations WHERE issuer = $1",
                                                          [configuration.issuer.absoluteString])
        XCTAssertEqual(rows.count, 1)
        XCTAssertTrue(rows.first?.first??.hasPrefix("fresh-") == true)
    }
}
