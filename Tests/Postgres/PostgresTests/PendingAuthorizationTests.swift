import ClientTestSupport
import Foundation
import SessionCore
@testable import SessionPostgres
import SessionTesting
import XCTest

/// Pending sign-ins in PostgreSQL: begun on one node, finished on another, once.
final class PendingAuthorizationTests: XCTestCase {
    func testASignInBegunOnOneNodeIsFinishedOnAnotherAndOnlyOnce() async throws {
        let local = try LocalProvider()
        addTeardownBlock { local.stop() }
        let configuration = try local.configuration()
        let firstNode = PostgresPendingAuthorizations(database: try PostgresHarness.database(), configuration: configuration)
        let secondNode = PostgresPendingAuthorizations(database: try PostgresHarness.database(), configuration: configuration)
        let first = SessionClient(provider: OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 5)))
        let request = try await first.beginAuthorization(keepingPendingIn: firstNode)
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
                        return try await client.completeAuthorization(callbackURL: callback, pendingIn: store).subject ?? "?"
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
        XCTAssertEqual(left, [["0"]], "taken in the statement that read it")
    }

    func testExpiredRowsAreSweptAsNewOnesAreKept() async throws {
        let configuration = try PostgresHarness.configuration()
        let store = PostgresPendingAuthorizations(database: try PostgresHarness.database(), configuration: configuration)
        try await store.keep(Data("old".utf8), key: "expired-\(UUID().uuidString)", expiresAt: Date().addingTimeInterval(-5))
        try await store.keep(Data("new".utf8), key: "fresh-\(UUID().uuidString)", expiresAt: Date().addingTimeInterval(600))
        let rows = try await PostgresHarness.admin().rows("SELECT request FROM session_service_pending_authorizations WHERE issuer = $1",
                                                          [configuration.issuer.absoluteString])
        XCTAssertEqual(rows, [["new"]])
    }
}
