import ClientTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SessionCore
@testable import SessionPostgres
import XCTest

/// The throw-away cluster Tests/Postgres/run.sh started: its connection string (from a file only
/// the tests' user can read), and what the tests do to it behind the store's back.
enum PostgresHarness {
    /// The cluster's connection string; the test is skipped outside Tests/Postgres/run.sh.
    static func connectionString() throws -> String {
        guard let file = ProcessInfo.processInfo.environment["SESSION_POSTGRES_CONNINFO_FILE"] else {
            throw XCTSkip("run by Tests/Postgres/run.sh, which starts PostgreSQL")
        }
        return try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The file the connection string is in, for child processes.
    static var connectionStringFile: String { ProcessInfo.processInfo.environment["SESSION_POSTGRES_CONNINFO_FILE"] ?? "" }

    /// The fleet's sealing keys: the key Tests/Postgres/run.sh wrote, current.
    static func sealingKeys() throws -> SealingKeys {
        guard let file = ProcessInfo.processInfo.environment["SESSION_POSTGRES_SEALING_KEY_FILE"] else {
            throw XCTSkip("run by Tests/Postgres/run.sh, which makes the sealing key")
        }
        return try SealingKeys(current: SealingKey(id: "fleet", bytes: try Data(contentsOf: URL(fileURLWithPath: file))))
    }

    static func database(_ edit: (inout PostgresDatabase.Options) -> Void = { _ in }, extra: String = "",
                         sealingKeys: SealingKeys? = nil) throws -> PostgresDatabase {
        var options = PostgresDatabase.Options()
        edit(&options)
        return try PostgresDatabase(connectionString: try connectionString() + (extra.isEmpty ? "" : " " + extra),
                                    sealingKeys: try sealingKeys ?? Self.sealingKeys(), options: options)
    }

    /// A database reached through PgBouncer in transaction-pooling mode.
    static func throughPooler(_ edit: (inout PostgresDatabase.Options) -> Void = { _ in }) throws -> PostgresDatabase {
        guard let file = ProcessInfo.processInfo.environment["SESSION_POSTGRES_POOLER_CONNINFO_FILE"] else {
            throw XCTSkip("run by Tests/Postgres/run.sh, which starts PgBouncer")
        }
        var options = PostgresDatabase.Options()
        edit(&options)
        return try PostgresDatabase(connectionString: try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines),
                                    sealingKeys: try sealingKeys(), options: options)
    }

    /// A role of its own that can log in with `password` and has only `grants` (statements run
    /// as the cluster's superuser, `ROLE` standing for the role's name); a database of it.
    static func role(_ name: String, password: String, grants: [String]) async throws -> PostgresDatabase {
        let admin = try admin()
        try await admin.prepare()
        _ = try await admin.rows("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '\(name)') THEN CREATE ROLE \(name) LOGIN PASSWORD '\(password)'; END IF; END $$")
        _ = try await admin.rows("REVOKE ALL ON ALL TABLES IN SCHEMA public FROM \(name)")
        for grant in grants { _ = try await admin.rows(grant.replacingOccurrences(of: "ROLE", with: name)) }
        return try database(extra: "user=\(name) password=\(password) application_name=\(name)")
    }

    /// A database of the tests' own (its connections are not the store's `SessionService` ones).
    static func admin() throws -> PostgresDatabase {
        try database(extra: "application_name=tests")
    }

    static func configuration(issuer: String = "https://op.example/\(UUID().uuidString)", client: String = "client") throws -> SessionConfiguration {
        try SessionConfiguration(issuer: URL(string: issuer)!, clientID: client, redirectURI: URL(string: "com.example.app:/cb")!)
    }

    static func tokens(_ access: String, subject: String = "erika") -> SessionTokens {
        SessionTokens(accessToken: access, refreshToken: "refresh-\(access)", idToken: nil,
                      expiresAt: Date(timeIntervalSince1970: 2_000_000_000), scopes: ["openid"], subject: subject)
    }

    /// Restarts the server (`pg_ctl restart`), as an operator or a crash would.
    static func restartServer() throws {
        guard let script = ProcessInfo.processInfo.environment["SESSION_POSTGRES_RESTART"] else { throw XCTSkip("no restart script") }
        // system(3) waits for the script alone: the server it starts keeps running with what it
        // inherited, which a Foundation Process would wait on.
        XCTAssertEqual(system(script), 0, "pg_ctl restart")
    }

    /// Stops the server (`pg_ctl stop`), as an outage would; ``startServer()`` brings it back.
    static func stopServer() throws {
        guard let script = ProcessInfo.processInfo.environment["SESSION_POSTGRES_STOP"] else { throw XCTSkip("no stop script") }
        XCTAssertEqual(system(script), 0, "pg_ctl stop")
    }

    /// Starts the server that ``stopServer()`` stopped.
    static func startServer() throws {
        guard let script = ProcessInfo.processInfo.environment["SESSION_POSTGRES_START"] else { throw XCTSkip("no start script") }
        XCTAssertEqual(system(script), 0, "pg_ctl start")
    }
}

extension PostgresHarness {
    /// Two nodes' stores of one session take its lease in turn: the second gets it only once the
    /// first has written its rotated tokens and let go, and reads them.
    static func assertOneHolderAtATime(_ first: PostgresTokenStore, _ second: PostgresTokenStore,
                                       file: StaticString = #filePath, line: UInt = #line) async throws {
        try await first.save(PostgresHarness.tokens("start"))
        let order = Locked<[String]>([])
        let entered = Signal()
        let release = Signal()
        async let holder: Void = first.withRefreshLock {
            order.withLock { $0.append("first in") }
            _ = try await first.load()
            await entered.raise()
            await release.wait()
            try await first.save(PostgresHarness.tokens("rotated"))
            order.withLock { $0.append("first out") }
        }
        await entered.wait()
        async let waiter: SessionTokens? = second.withRefreshLock {
            order.withLock { $0.append("second in") }
            return try await second.load()
        }
        await release.raise()
        try await holder
        let seen = try await waiter
        XCTAssertEqual(order.value, ["first in", "first out", "second in"], file: file, line: line)
        XCTAssertEqual(seen?.accessToken, "rotated", "the next holder reads what the first wrote", file: file, line: line)
    }
}

extension PostgresDatabase {
    /// For tests: runs `sql` on a connection of the pool and returns its rows.
    func rows(_ sql: String, _ parameters: [String?] = []) async throws -> [[String?]] {
        try await withConnection("run a test statement") { connection throws(PostgresFailure) in
            try connection.execute(sql, parameters).rows
        }
    }

    /// For tests: runs `sql` as the database's role, without preparing the schema first (a role
    /// with no rights on the tables could not).
    func rawRows(_ sql: String, _ parameters: [String?] = []) async throws -> [[String?]] {
        try await withPooledConnection("run a test statement") { connection throws(PostgresFailure) in
            try connection.execute(sql, parameters).rows
        }
    }
}

/// The SessionError `body` throws, failing the test when it throws none.
func sessionError(_ body: () async throws -> Void, file: StaticString = #filePath, line: UInt = #line) async -> SessionError? {
    do {
        try await body()
        XCTFail("no error was thrown", file: file, line: line)
        return nil
    } catch let error as SessionError {
        return error
    } catch {
        XCTFail("threw \(type(of: error)), not a SessionError", file: file, line: line)
        return nil
    }
}
