import ClientTestSupport
import Foundation
import SessionCore
@testable import SessionPostgres
import SessionTesting
import XCTest

/// The database connection lost around a refresh: before the request goes out, the session is kept
/// and the next call connects again; after the provider answered, the node keeps the rotated
/// tokens and saves them when the database is back, and when it stays away longer than the save's
/// window, no node ever sends the spent refresh token again.
final class ConnectionFaultTests: XCTestCase {
    private func expiredSession(_ edit: (inout PostgresDatabase.Options) -> Void = { _ in })
        async throws -> (LocalProvider, SessionConfiguration, PostgresDatabase, SessionClient) {
        let provider = try LocalProvider()
        addTeardownBlock { provider.stop() }
        let configuration = try provider.configuration()
        let database = try PostgresHarness.database(edit)
        let client = SessionClient(provider: OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 10)),
                                   store: PostgresTokenStore(database: database, configuration: configuration))
        let tokens = try await client.signIn(agent: HeadlessUserAgent())
        try await client.setTokens(tokens.withExpiry(Date().addingTimeInterval(-60)))
        return (provider, configuration, database, client)
    }

    func testLostBeforeTheRefreshRequestKeepsTheSessionAndTheNextCallConnects() async throws {
        let (provider, _, _, client) = try await expiredSession()
        let refreshesBefore = provider.requests(to: .token).count
        // The database stops before the refresh: nothing can be marked, so nothing is sent.
        try PostgresHarness.stopServer()
        let error = await sessionError { _ = try await client.validTokens() }
        try PostgresHarness.startServer()
        XCTAssertEqual(error?.code, .storageFailed)
        XCTAssertEqual(provider.requests(to: .token).count, refreshesBefore, "no refresh went out")
        let kept = await client.tokens
        XCTAssertNotNil(kept, "the session is kept")
        let refreshed = try await client.validTokens()
        XCTAssertNotEqual(refreshed.accessToken, kept?.accessToken, "the next call connected again and refreshed")
        XCTAssertEqual(provider.refreshTokenReuses, 0)
    }

    /// The database goes away while the refresh is at the provider and comes back two seconds
    /// later: the node keeps the rotated tokens, saves them when it can, and every node goes on.
    func testAnOutageWhileTheRefreshIsAtTheProviderKeepsTheRotatedTokens() async throws {
        let (provider, configuration, _, client) = try await expiredSession()
        provider.whenReceiving(.token) {
            try? PostgresHarness.stopServer()
            DispatchQueue.global().asyncAfter(deadline: .now() + 2) { try? PostgresHarness.startServer() }
        }
        defer { provider.whenReceiving(.token, nil) }
        let refreshed = try await client.validTokens()
        let other = SessionClient(provider: OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 10)),
                                  store: PostgresTokenStore(database: try PostgresHarness.database(), configuration: configuration))
        let restored = try await other.loadStoredSession()
        XCTAssertEqual(restored?.accessToken, refreshed.accessToken, "the rotated tokens were saved once the database was back")
        XCTAssertEqual(provider.refreshTokenReuses, 0)
    }

    /// The rotated tokens' write fails for longer than the save's window: the session ends on this
    /// node, and no node ever sends the spent refresh token again.
    func testAWriteThatFailsBeyondTheWindowNeverReplaysTheSpentToken() async throws {
        let (provider, configuration, database, client) = try await expiredSession { $0.saveRetryWindow = 1 }
        // The write of the rotated tokens (over version 3: the one that marked the refresh) loses
        // its connection, every time: the server ends the backend that runs it.
        let admin = try PostgresHarness.admin()
        _ = try await admin.rows("CREATE TABLE IF NOT EXISTS session_service_tests_cut (issuer text PRIMARY KEY)")
        _ = try await admin.rows("""
            CREATE OR REPLACE FUNCTION session_service_tests_cut() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF EXISTS (SELECT 1 FROM session_service_tests_cut WHERE issuer = NEW.issuer) THEN
                    PERFORM pg_terminate_backend(pg_backend_pid());
                END IF;
                RETURN NEW;
            END $$
            """)
        _ = try await admin.rows("""
            CREATE OR REPLACE TRIGGER session_service_tests_cut BEFORE UPDATE ON session_service_sessions FOR EACH ROW
            WHEN (OLD.version = 3) EXECUTE FUNCTION session_service_tests_cut()
            """)
        _ = try await admin.rows("INSERT INTO session_service_tests_cut VALUES ($1)", [configuration.issuer.absoluteString])
        let error = await sessionError { _ = try await client.validTokens() }
        XCTAssertEqual(error?.code, .storageFailed, error?.message ?? "")
        let refreshes = provider.requests(to: .token).filter { $0.parameters["grant_type"] == "refresh_token" }.count
        XCTAssertEqual(refreshes, 1)

        // Another node, later: the session is gone or still marked, so it does not send the token.
        let other = SessionClient(provider: OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 10)),
                                  store: PostgresTokenStore(database: try PostgresHarness.database(), configuration: configuration))
        let restored = try await other.loadStoredSession()
        XCTAssertNil(restored, "an interrupted refresh's session is not restored")
        XCTAssertEqual(provider.requests(to: .token).filter { $0.parameters["grant_type"] == "refresh_token" }.count, refreshes)
        XCTAssertEqual(provider.refreshTokenReuses, 0)
        _ = database
        _ = try await admin.rows("DELETE FROM session_service_tests_cut WHERE issuer = $1", [configuration.issuer.absoluteString])
    }
}
