import ClientTestSupport
import Foundation
import SessionCore
@testable import SessionPostgres
import SessionTesting
import XCTest

/// The database connection lost around a refresh: before the request goes out, the session is kept
/// and the next call connects again; after the provider answered, the rotated tokens cannot be
/// written, and no node ever sends the spent refresh token again.
final class ConnectionFaultTests: XCTestCase {
    private func expiredSession() async throws -> (LocalProvider, SessionConfiguration, PostgresDatabase, SessionClient) {
        let provider = try LocalProvider()
        addTeardownBlock { provider.stop() }
        let configuration = try provider.configuration()
        let database = try PostgresHarness.database()
        let client = SessionClient(provider: OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 10)),
                                   store: PostgresTokenStore(database: database, configuration: configuration))
        let tokens = try await client.signIn(agent: HeadlessUserAgent())
        try await client.setTokens(tokens.withExpiry(Date().addingTimeInterval(-60)))
        return (provider, configuration, database, client)
    }

    /// Ends every connection the stores opened (the tests' own are named otherwise).
    private static func terminateStoreConnections() async throws {
        _ = try await PostgresHarness.admin().rows("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'SessionService'")
    }

    func testLostBeforeTheRefreshRequestKeepsTheSessionAndTheNextCallConnects() async throws {
        let (provider, _, _, client) = try await expiredSession()
        let refreshesBefore = provider.requests(to: .token).count
        try await Self.terminateStoreConnections()
        let error = await sessionError { _ = try await client.validTokens() }
        XCTAssertEqual(error?.code, .storageFailed)
        XCTAssertTrue(error?.message.contains("lost") == true, error?.message ?? "")
        XCTAssertEqual(provider.requests(to: .token).count, refreshesBefore, "no refresh went out")
        let kept = await client.tokens
        XCTAssertNotNil(kept, "the session is kept")
        let refreshed = try await client.validTokens()
        XCTAssertNotEqual(refreshed.accessToken, kept?.accessToken, "the next call connected again and refreshed")
        XCTAssertEqual(provider.refreshTokenReuses, 0)
    }

    func testLostAfterTheProviderAnsweredNeverReplaysTheSpentToken() async throws {
        let (provider, configuration, database, client) = try await expiredSession()
        // The write of the rotated tokens (the one that takes the refresh's mark off the row) loses
        // its connection: the server ends the backend that runs it.
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
            WHEN (OLD.envelope LIKE '%"inFlight"%' AND NEW.envelope NOT LIKE '%"inFlight"%') EXECUTE FUNCTION session_service_tests_cut()
            """)
        _ = try await admin.rows("INSERT INTO session_service_tests_cut VALUES ($1)", [configuration.issuer.absoluteString])
        let error = await sessionError { _ = try await client.validTokens() }
        XCTAssertEqual(error?.code, .storageFailed, error?.message ?? "")
        XCTAssertTrue(error?.message.contains("lost") == true, error?.message ?? "")
        let refreshes = provider.requests(to: .token).filter { $0.parameters["grant_type"] == "refresh_token" }.count

        // Another node, later: the row still carries the refresh's mark, so it does not send the token.
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
