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

    static func database(_ edit: (inout PostgresDatabase.Options) -> Void = { _ in }, extra: String = "") throws -> PostgresDatabase {
        var options = PostgresDatabase.Options()
        edit(&options)
        return try PostgresDatabase(connectionString: try connectionString() + (extra.isEmpty ? "" : " " + extra), options: options)
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
}

extension PostgresDatabase {
    /// For tests: runs `sql` on a connection of the pool and returns its rows.
    func rows(_ sql: String, _ parameters: [String?] = []) async throws -> [[String?]] {
        try await withConnection("run a test statement") { connection throws(PostgresFailure) in
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
