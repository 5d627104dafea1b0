import Foundation
import SessionCore
@testable import SessionPostgres
import XCTest

/// The way to the database: TLS that verifies the server for every database that is not on this
/// machine, whatever the connection string leaves unsaid; a weaker mode only by an option that
/// says it is insecure; an error that says how to fix a failed verification; and a password cut
/// out of messages by its place in the connection string, not by its text.
final class TransportSecurityTests: XCTestCase {
    /// The cluster's connection string without its `sslmode` and `host`, reached as
    /// `db.session.test` (a name that is not loopback) at 127.0.0.1.
    private func remote(_ extra: String) throws -> String {
        let base = try PostgresHarness.connectionString().split(separator: " ")
            .filter { !$0.hasPrefix("sslmode=") && !$0.hasPrefix("host=") }.joined(separator: " ")
        return base + " host=db.session.test hostaddr=127.0.0.1 " + extra
    }

    private func rootCertificate() throws -> String {
        guard let root = ProcessInfo.processInfo.environment["SESSION_POSTGRES_ROOT_CERT"] else { throw XCTSkip("run by Tests/Postgres/run.sh") }
        return root
    }

    func testADatabaseElsewhereIsVerifiedWhenTheStringSaysNothing() async throws {
        let root = try rootCertificate()
        // No sslmode, no authority: libpq's own default would connect unverified (a man in the
        // middle could read the sessions). Here the server must be verified, so it fails, saying how to fix it.
        let unverified = try PostgresDatabase(connectionString: try remote("application_name=tests"), sealingKeys: PostgresHarness.sealingKeys())
        let error = await sessionError { _ = try await unverified.rows("SELECT 1") }
        XCTAssertEqual(error?.code, .storageFailed)
        XCTAssertTrue(error?.message.contains("sslrootcert") == true, error?.message ?? "")

        // With the server's authority it connects, over TLS.
        let verified = try PostgresDatabase(connectionString: try remote("sslrootcert=\(root) application_name=tests"),
                                            sealingKeys: PostgresHarness.sealingKeys())
        let rows = try await verified.rows("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
        XCTAssertEqual(rows, [["t"]], "the connection is encrypted and the server verified")

        // An authority that did not sign the server's certificate (what a man in the middle presents).
        let stranger = try PostgresDatabase(connectionString: try remote("sslrootcert=/etc/ssl/certs/ca-certificates.crt"),
                                            sealingKeys: PostgresHarness.sealingKeys())
        let refused = await sessionError { _ = try await stranger.rows("SELECT 1") }
        XCTAssertEqual(refused?.code, .storageFailed)
        XCTAssertTrue(refused?.message.contains("could not be verified") == true, refused?.message ?? "")
    }

    func testAWeakerModeForADatabaseElsewhereIsRefusedUnlessTheInsecureOptionAllowsIt() async throws {
        for mode in ["require", "prefer", "allow", "disable", "verify-ca"] {
            // Outside the harness `remote` skips the test: it must not count as the refusal.
            let connectionString = try remote("sslmode=\(mode)")
            XCTAssertThrowsError(try PostgresDatabase(connectionString: connectionString, sealingKeys: PostgresHarness.sealingKeys()),
                                 mode) { error in
                XCTAssertEqual((error as? SessionError)?.code, .invalidConfiguration, mode)
                XCTAssertTrue((error as? SessionError)?.message.contains("insecurelyAllowsUnverifiedConnections") == true, mode)
            }
        }
        var options = PostgresDatabase.Options()
        options.insecurelyAllowsUnverifiedConnections = true
        let allowed = try PostgresDatabase(connectionString: try remote("sslmode=require application_name=tests"),
                                           sealingKeys: PostgresHarness.sealingKeys(), options: options)
        let rows = try await allowed.rows("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
        XCTAssertEqual(rows, [["t"]], "encrypted, though not verified, as the option says")
    }

    func testWhereTheDatabaseIsDecidesTheDefault() throws {
        let none: [String: String] = [:]
        func mode(_ settings: [String: String], _ environment: [String: String] = [:]) throws -> String? {
            try PostgresTransportSecurity.sslMode(for: settings, environment: environment, allowsUnverified: false)
        }
        XCTAssertNil(try mode(none), "the default Unix socket")
        XCTAssertNil(try mode(["host": "/var/run/postgresql"]))
        XCTAssertNil(try mode(["host": "localhost", "sslmode": "disable"]))
        XCTAssertNil(try mode(["host": "127.0.0.1,::1"]))
        XCTAssertEqual(try mode(["host": "db.internal"]), "verify-full")
        XCTAssertEqual(try mode(["host": "127.0.0.1,db.internal"]), "verify-full", "every host must be local")
        XCTAssertEqual(try mode(["host": "localhost", "hostaddr": "10.0.0.5"]), "verify-full", "connected elsewhere whatever the name")
        XCTAssertEqual(try mode(none, ["PGHOST": "db.internal"]), "verify-full", "libpq's environment stands in for the string")
        XCTAssertNil(try mode(["host": "db.internal", "sslmode": "verify-full"]))
        XCTAssertThrowsError(try mode(["host": "db.internal"], ["PGSSLMODE": "prefer"]))
        XCTAssertThrowsError(try mode(["host": "db.internal", "requiressl": "1"]))
    }

    /// When the password equals the user name, the server's message still names the user: the
    /// password is cut out only where it stands in the connection string.
    func testThePasswordIsCutOutByItsPlaceNotByItsText() async throws {
        let name = "same_as_password"
        _ = try await PostgresHarness.role(name, password: "another-\(UInt32.random(in: 0...UInt32.max))", grants: [])
        let wrong = try PostgresHarness.database(extra: "user=\(name) password=\(name)")
        let error = await sessionError { _ = try await wrong.rawRows("SELECT 1") }
        XCTAssertTrue(error?.message.contains("user \"\(name)\"") == true, error?.message ?? "")

        let secret = "s3cret-\(UUID().uuidString)"
        let keyValue = try XCTUnwrap(try PostgresConnectionString("host=127.0.0.1 user=\(secret) password='\(secret)' port=5432"))
        XCTAssertEqual(keyValue.redact("password authentication failed for user \"\(secret)\""),
                       "password authentication failed for user \"\(secret)\"", "the user's place is not the password's")
        XCTAssertEqual(keyValue.redact("invalid value \"'\(secret)' port\" near the end"), "invalid value \"•••\" near the end")
        let uri = try XCTUnwrap(try PostgresConnectionString("postgresql://app:\(secret)@db.internal:5432/sessions?application_name=x"))
        XCTAssertEqual(uri.redact("could not parse \"app:\(secret)@db.internal\""), "could not parse \"•••\"")
        XCTAssertEqual(uri.redact("database \"sessions\" does not exist"), "database \"sessions\" does not exist")
        let query = try XCTUnwrap(try PostgresConnectionString("postgresql://db.internal/sessions?user=app&password=\(secret)"))
        XCTAssertEqual(query.redact("bad \"\(secret)\""), "bad \"•••\"")
    }
}
