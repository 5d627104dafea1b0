import ClientTestSupport
import Foundation
import SessionCore
@testable import SessionPostgres
import SessionTesting
import XCTest

/// PostgresTokenStore against a real PostgreSQL server: rows, schema, bad rows, faults.
final class PostgresTokenStoreTests: XCTestCase {
    func testSaveLoadReplaceClearInARowOfItsOwn() async throws {
        let database = try PostgresHarness.database()
        let configuration = try PostgresHarness.configuration()
        let store = PostgresTokenStore(database: database, configuration: configuration)
        let other = PostgresTokenStore(database: database, configuration: try PostgresHarness.configuration(issuer: configuration.issuer.absoluteString, client: "other"))
        let nothing = try await store.load()
        XCTAssertNil(nothing)
        try await store.save(PostgresHarness.tokens("one"))
        try await other.save(PostgresHarness.tokens("theirs"))
        try await store.save(PostgresHarness.tokens("two"))
        let loaded = try await store.load()
        XCTAssertEqual(loaded?.accessToken, "two")
        let theirs = try await other.load()
        XCTAssertEqual(theirs?.accessToken, "theirs", "another client's row is its own")

        let rows = try await PostgresHarness.admin().rows(
            "SELECT account, version FROM session_service_sessions WHERE issuer = $1 AND client_id = 'client'", [configuration.issuer.absoluteString])
        XCTAssertEqual(rows.count, 1)
        XCTAssertEqual(rows.first?[0], "", "the one session of an issuer and client has no account")
        XCTAssertEqual(rows.first?[1], "2", "every write increments the version")
        try await store.clear()
        let cleared = try await store.load()
        XCTAssertNil(cleared)
        try await store.clear()
    }

    func testTheSchemaIsCreatedOnceWhateverHowManyStartAtOnce() async throws {
        let databases = try (0..<6).map { _ in try PostgresHarness.database() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for database in databases { group.addTask { try await database.prepare() } }
            try await group.waitForAll()
        }
        let version = try await PostgresHarness.admin().rows("SELECT version FROM session_service_schema")
        XCTAssertEqual(version, [["\(PostgresSchema.version)"]])
    }

    func testABadRowIsStorageCorruptForThatSessionOnly() async throws {
        let database = try PostgresHarness.database()
        let admin = try PostgresHarness.admin()
        let configuration = try PostgresHarness.configuration()
        let good = PostgresTokenStore(database: database, configuration: configuration)
        try await good.save(PostgresHarness.tokens("good"))
        let envelope = try await admin.rows("SELECT envelope FROM session_service_sessions WHERE issuer = $1 AND account = ''",
                                            [configuration.issuer.absoluteString]).first?.first ?? nil
        let intact = try XCTUnwrap(envelope)
        let changed = String(intact.dropLast()) + (intact.hasSuffix("A") ? "B" : "A")
        let otherKey = try PostgresRowSeal(keys: SealingKeys(current: SealingKey.generate(id: "elsewhere")))
        let plaintext = #"{"clientID":"client","issuer":"x","tokens":{"accessToken":"planted","scopes":[]},"version":1}"#
        let cases: [(String, (SessionConfiguration) throws -> String)] = [
            ("truncated", { _ in String(intact.prefix(intact.count / 2)) }),
            ("a changed byte", { _ in changed }),
            ("not sealed", { _ in plaintext }),
            ("sealed for another row", { _ in intact }),
            ("sealed with a key the service does not have", {
                try otherKey.seal(Data(plaintext.utf8), for: PostgresSessionKey(issuer: $0.issuer.absoluteString, clientID: $0.clientID, account: "").row)
            }),
            ("over 1 MiB", { _ in "s1.fleet." + String(repeating: "A", count: PostgresTokenStore.maximumRowSize) }),
        ]
        for (index, (label, planted)) in cases.enumerated() {
            let bad = try PostgresHarness.configuration(issuer: configuration.issuer.absoluteString, client: "bad-\(index)")
            _ = try await admin.rows("INSERT INTO session_service_sessions (issuer, client_id, account, envelope, version) VALUES ($1, $2, '', $3, 1)",
                                     [bad.issuer.absoluteString, bad.clientID, try planted(bad)])
            let error = await sessionError { _ = try await PostgresTokenStore(database: database, configuration: bad).load() }
            XCTAssertEqual(error?.code, .storageCorrupt, label)
            XCTAssertFalse(error?.message.contains("planted") ?? true, "\(label): no token in the message")
        }
        let stillGood = try await good.load()
        XCTAssertEqual(stillGood?.accessToken, "good", "the other sessions are not touched")
    }

    func testTheConnectionStringNeverShowsAndItsPasswordIsCutOutOfErrors() async throws {
        let connectionString = try PostgresHarness.connectionString()
        let password = try XCTUnwrap(connectionString.components(separatedBy: "password=").last?.components(separatedBy: " ").first)
        let database = try PostgresHarness.database()
        XCTAssertFalse("\(database)".contains(password))
        XCTAssertFalse(String(reflecting: database).contains(password))

        // A wrong user: the server refuses, and the message names neither the password nor the string.
        let wrong = try PostgresHarness.database(extra: "user=nobody")
        let refused = await sessionError { _ = try await PostgresTokenStore(database: wrong, configuration: try PostgresHarness.configuration()).load() }
        XCTAssertEqual(refused?.code, .storageFailed)
        XCTAssertTrue(refused?.message.contains("cannot be reached") == true, refused?.message ?? "")
        XCTAssertFalse(refused?.message.contains(password) ?? true)

        // An unparsable string is refused at once, without being quoted.
        let secret = "hunter2-\(UUID().uuidString)"
        XCTAssertThrowsError(try PostgresDatabase(connectionString: "host=127.0.0.1 password=\(secret) port", sealingKeys: PostgresHarness.sealingKeys())) { error in
            let message = (error as? SessionError)?.message ?? ""
            XCTAssertEqual((error as? SessionError)?.code, .invalidConfiguration)
            XCTAssertFalse(message.contains(secret), message)
        }
    }

    func testAnUnreachableDatabaseIsStorageFailedAndTheNextCallConnects() async throws {
        // A port nothing listens on.
        var options = PostgresDatabase.Options()
        options.retryWindow = 0
        let database = try PostgresDatabase(connectionString: "host=127.0.0.1 port=1 dbname=none user=none connect_timeout=2",
                                            sealingKeys: PostgresHarness.sealingKeys(), options: options)
        let error = await sessionError { _ = try await PostgresTokenStore(database: database, configuration: try PostgresHarness.configuration()).load() }
        XCTAssertEqual(error?.code, .storageFailed)
        XCTAssertTrue(error?.message.contains("the database cannot be reached") == true, error?.message ?? "")
    }

    func testAStatementTimeoutIsStorageFailedAndKeepsTheSession() async throws {
        let admin = try PostgresHarness.admin()
        try await admin.prepare()
        // Writes of this client wait two seconds: longer than the store's statement timeout.
        _ = try await admin.rows("""
            CREATE OR REPLACE FUNCTION session_service_tests_slow() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN IF NEW.client_id = 'slow' THEN PERFORM pg_sleep(2); END IF; RETURN NEW; END $$
            """)
        _ = try await admin.rows("""
            CREATE OR REPLACE TRIGGER session_service_tests_slow BEFORE INSERT OR UPDATE ON session_service_sessions
            FOR EACH ROW EXECUTE FUNCTION session_service_tests_slow()
            """)
        let database = try PostgresHarness.database { $0.statementTimeout = 0.3; $0.saveRetryWindow = 0 }
        let store = PostgresTokenStore(database: database, configuration: try PostgresHarness.configuration(client: "slow"))
        let error = await sessionError { try await store.save(PostgresHarness.tokens("slow")) }
        XCTAssertEqual(error?.code, .storageFailed)
        XCTAssertTrue(error?.message.contains("statement timeout") == true, error?.message ?? "")
        let nothing = try await store.load()
        XCTAssertNil(nothing, "the timed-out write did not happen")
    }

    func testAFutureSchemaIsRefusedForEverySession() async throws {
        let admin = try PostgresHarness.admin()
        let name = "future_\(UInt32.random(in: 0...UInt32.max))"
        _ = try await admin.rows("CREATE DATABASE \(name)")
        let future = try PostgresHarness.database(extra: "dbname=\(name)")
        try await future.prepare()
        let futureAdmin = try PostgresHarness.database(extra: "dbname=\(name) application_name=tests")
        _ = try await futureAdmin.rows("UPDATE session_service_schema SET version = 99")
        let later = try PostgresHarness.database(extra: "dbname=\(name)")
        let error = await sessionError { _ = try await PostgresTokenStore(database: later, configuration: try PostgresHarness.configuration()).load() }
        XCTAssertEqual(error?.code, .storageFailed)
        XCTAssertTrue(error?.message.contains("version 99") == true, error?.message ?? "")
    }

    func testADPoPSessionKeepsItsKeyInItsRowAndAnotherNodeProvesWithIt() async throws {
        let provider = try LocalProvider(clock: SystemClock()) { options in
            options.offersDPoP = true
            options.requiresDPoP = true
        }
        addTeardownBlock { provider.stop() }
        let configuration = try provider.configuration(dpop: .required)
        let database = try PostgresHarness.database()
        let signedIn = try await SessionClient(configuration: configuration, store: PostgresTokenStore(database: database, configuration: configuration),
                                               transport: CurlTransport(timeout: 5)).signIn(agent: HeadlessUserAgent())
        XCTAssertTrue(signedIn.isSenderConstrained)
        let node = SessionClient(configuration: configuration, store: PostgresTokenStore(database: try PostgresHarness.database(), configuration: configuration),
                                 transport: CurlTransport(timeout: 5))
        let restored = try await node.loadStoredSession()
        XCTAssertEqual(restored?.dpopKey, signedIn.dpopKey, "the key is in the row's envelope")
        let info = try await node.userInfo()
        XCTAssertEqual(info.sub, "erika", "the other node's proof with the stored key is accepted")
        try await node.signOut()
        let gone = try await PostgresTokenStore(database: database, configuration: configuration).load()
        XCTAssertNil(gone, "the key goes with the session")
    }
}

/// The server restarted under a running store: the call that meets the restart finds its pooled
/// connection broken, drops the pool's dead connections and runs again on a fresh one, so no call
/// fails; the session is as it was.
final class PostgresRestartTests: XCTestCase {
    func testARestartCostsNoCall() async throws {
        let database = try PostgresHarness.database()
        let store = PostgresTokenStore(database: database, configuration: try PostgresHarness.configuration())
        // Several connections in the pool, all of which the restart breaks.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<4 { group.addTask { try await store.save(PostgresHarness.tokens("before the restart \(index)")) } }
            try await group.waitForAll()
        }
        try await store.save(PostgresHarness.tokens("before the restart"))
        try PostgresHarness.restartServer()
        let after = try await store.load()
        XCTAssertEqual(after?.accessToken, "before the restart")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { _ = try await store.load() } }
            try await group.waitForAll()
        }
        try await store.save(PostgresHarness.tokens("after the restart"))
        let saved = try await store.load()
        XCTAssertEqual(saved?.accessToken, "after the restart")
    }
}
