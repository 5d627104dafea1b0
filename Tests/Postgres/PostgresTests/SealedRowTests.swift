import ClientTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SessionCore
@testable import SessionPostgres
import SessionTesting
import XCTest

/// The database as an attacker with a role of their own sees it: a reader of the tables (a backup,
/// a replica, a reporting job) reads no token and no key; a writer can neither plant a session or
/// a sign-in nor pass one account's session off as another's. Keys rotate without signing anyone
/// out, a database of the previous release is sealed where it is, and no row is read whole before
/// its size is checked.
final class SealedRowTests: XCTestCase {
    private func provider(dpop: Bool = false) throws -> LocalProvider {
        let provider = try LocalProvider(clock: SystemClock()) { options in
            options.users = [.erika, .max]
            options.offersDPoP = dpop
        }
        addTeardownBlock { provider.stop() }
        return provider
    }

    func testAReaderOfTheTablesReadsNoTokenAndNoKey() async throws {
        let provider = try provider(dpop: true)
        let configuration = try provider.configuration(dpop: .required)
        let database = try PostgresHarness.database()
        let accounts = AccountSessions(provider: OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 5)),
                                       store: PostgresAccountStore(database: database, configuration: configuration))
        let (_, session) = try await accounts.signIn(agent: HeadlessUserAgent())
        let signedIn = await session.tokens
        let tokens = try XCTUnwrap(signedIn)
        let client = SessionClient(provider: OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 5)))
        let request = try await client.beginAuthorization(keepingIn: .store(PostgresPendingAuthorizations(database: database, configuration: configuration))).request

        let reader = try await PostgresHarness.role("reader", password: "reader-password", grants: ["GRANT SELECT ON ALL TABLES IN SCHEMA public TO ROLE"])
        let rows = try await reader.rawRows("SELECT envelope FROM session_service_sessions WHERE issuer = $1", [configuration.issuer.absoluteString])
            + reader.rawRows("SELECT request FROM session_service_pending_authorizations WHERE issuer = $1", [configuration.issuer.absoluteString])
        XCTAssertEqual(rows.count, 2)
        let seen = rows.compactMap { $0.first ?? nil }.joined(separator: "\n")
        let dpopKey = try XCTUnwrap(tokens.dpopKey)
        for secret in [tokens.accessToken, try XCTUnwrap(tokens.refreshToken), try XCTUnwrap(tokens.idToken),
                       dpopKey.base64EncodedString(), Base64URL.encode(dpopKey), "erika",
                       request.codeVerifier, request.state, request.nonce ?? "-"] {
            XCTAssertFalse(seen.contains(secret), "a reader of the tables saw a secret")
        }
        XCTAssertTrue(seen.split(separator: "\n").allSatisfy { $0.hasPrefix("s1.fleet.") }, "every row is sealed, naming its key")
    }

    func testAWriterCannotPlantASessionOrASignIn() async throws {
        let provider = try provider()
        let configuration = try provider.configuration()
        let database = try PostgresHarness.database()
        try await database.prepare()
        let inserter = try await PostgresHarness.role("inserter", password: "inserter-password",
                                                      grants: ["GRANT SELECT, INSERT ON ALL TABLES IN SCHEMA public TO ROLE"])
        let issuer = configuration.issuer.absoluteString
        // A session the previous release would have read: a plain envelope.
        let planted = #"{"clientID":"\#(configuration.clientID)","issuer":"\#(issuer)","tokens":{"accessToken":"planted","scopes":[],"subject":"erika"},"version":1}"#
        let account = try PostgresAccountStore(database: database, configuration: configuration).account(forSubject: "erika")
        _ = try await inserter.rawRows("INSERT INTO session_service_sessions (issuer, client_id, account, envelope, version) VALUES ($1, $2, $3, $4, 1)",
                                       [issuer, configuration.clientID, account, planted])
        let store = try PostgresAccountStore(database: database, configuration: configuration).tokenStore(forSubject: "erika")
        let refused = await sessionError { _ = try await store.load() }
        XCTAssertEqual(refused?.code, .storageCorrupt)
        let listed = try await PostgresAccountStore(database: database, configuration: configuration).storedSessions()
        XCTAssertEqual(listed, [], "nor listed")

        // A sign-in with a state, nonce and verifier of the inserter's choosing, as the previous
        // release kept one (a plain record for this client and redirect URI).
        let state = "chosen-state-\(UUID().uuidString)"
        let key = try PlatformCrypto.hexDigest(of: state, bytes: 16)
        let record: [String: Any] = [
            "binding": "SessionService sealed authorization v1\n\(issuer)\n\(configuration.clientID)\n\(configuration.redirectURI.absoluteString)",
            "payload": [
                "url": "\(issuer)/authorize", "redirectURI": configuration.redirectURI.absoluteString, "scopes": ["openid"], "state": state,
                "nonce": "chosen-nonce", "codeVerifier": String(repeating: "v", count: 43), "issuer": issuer, "issuerRequired": false,
                "expiresAt": Date().timeIntervalSince1970 + 600,
            ] as [String: Any],
        ]
        _ = try await inserter.rawRows("""
            INSERT INTO session_service_pending_authorizations (state_digest, issuer, client_id, request, expires_at)
            VALUES ($1, $2, $3, $4, now() + interval '10 minutes')
            """, [key, issuer, configuration.clientID, String(decoding: try JSONSerialization.data(withJSONObject: record), as: UTF8.self)])
        let node = SessionClient(provider: OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 5)))
        let callback = URL(string: "\(configuration.redirectURI.absoluteString)?code=attackers-code&state=\(state)&iss=\(issuer)")!
        let pending = PostgresPendingAuthorizations(database: database, configuration: configuration)
        let notFinished = await sessionError {
            _ = try await node.completeAuthorization(callbackURL: callback, keptIn: .store(pending), cookie: String(repeating: "A", count: 43))
        }
        XCTAssertEqual(notFinished?.code, .storageCorrupt, notFinished?.message ?? "")
        XCTAssertEqual(provider.requests(to: .token).count, 0, "no code was exchanged")
    }

    func testASessionCopiedUnderAnotherAccountDoesNotOpenThere() async throws {
        let provider = try provider()
        let configuration = try provider.configuration()
        let database = try PostgresHarness.database()
        let store = PostgresAccountStore(database: database, configuration: configuration)
        let accounts = AccountSessions(provider: OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 5)), store: store)
        provider.scriptConsent(.approve, .approveAs(subject: "max"))
        let (erika, _) = try await accounts.signIn(agent: HeadlessUserAgent())
        let (max, _) = try await accounts.signIn(agent: HeadlessUserAgent())
        let writer = try await PostgresHarness.role("writer", password: "writer-password",
                                                    grants: ["GRANT SELECT, UPDATE ON ALL TABLES IN SCHEMA public TO ROLE"])
        _ = try await writer.rawRows("""
            UPDATE session_service_sessions SET envelope = (SELECT envelope FROM session_service_sessions WHERE issuer = $1 AND account = $3)
            WHERE issuer = $1 AND account = $2
            """, [configuration.issuer.absoluteString, try store.account(forSubject: "erika"), try store.account(forSubject: "max")])
        let refused = await sessionError { _ = try await accounts.session(for: erika) }
        XCTAssertEqual(refused?.code, .storageCorrupt, "erika's account does not open max's session")
        let listed = try await accounts.accounts()
        XCTAssertEqual(listed.map(\.subject), ["max"])
        let maxs = try await accounts.session(for: max).userInfo()
        XCTAssertEqual(maxs.sub, "max")
    }

    func testRotatingTheKeySignsNobodyOut() async throws {
        let configuration = try PostgresHarness.configuration()
        let old = try PostgresHarness.sealingKeys().current
        let new = try SealingKey.generate(id: "rotated")
        let before = PostgresTokenStore(database: try PostgresHarness.database(), configuration: configuration)
        try await before.save(PostgresHarness.tokens("sealed with the old key"))
        let rotated = PostgresTokenStore(database: try PostgresHarness.database(sealingKeys: SealingKeys(current: new, previous: [old])),
                                         configuration: configuration)
        let read = try await rotated.load()
        XCTAssertEqual(read?.accessToken, "sealed with the old key", "a previous key still opens its rows")
        try await rotated.save(PostgresHarness.tokens("sealed with the new key"))
        let rows = try await PostgresHarness.admin().rows("SELECT envelope FROM session_service_sessions WHERE issuer = $1",
                                                          [configuration.issuer.absoluteString])
        XCTAssertTrue(rows.first?.first??.hasPrefix("s1.rotated.") == true, "written again under the current key")
        let stale = await sessionError { _ = try await before.load() }
        XCTAssertEqual(stale?.code, .storageCorrupt)
        XCTAssertTrue(stale?.message.contains("rotated") == true, stale?.message ?? "")
        XCTAssertThrowsError(try SealingKeys(current: new, previous: [new]))
        XCTAssertThrowsError(try SealingKey(id: "no spaces", bytes: Data(count: 32)))
        XCTAssertFalse("\(new)".contains(Base64URL.encode(new.bytes)), "a key never describes its bytes")
    }

    /// A database the previous release wrote (schema version 1, plain rows): migrating seals its
    /// sessions where they are, so nobody is signed out, and drops its unbound pending sign-ins.
    func testADatabaseOfThePreviousReleaseIsSealedWhereItIs() async throws {
        let admin = try PostgresHarness.admin()
        let name = "release1_\(UInt32.random(in: 0...UInt32.max))"
        _ = try await admin.rows("CREATE DATABASE \(name)")
        let old = try PostgresHarness.database(extra: "dbname=\(name) application_name=tests")
        let configuration = try PostgresHarness.configuration()
        let envelope = String(decoding: try StoredSessionCodec(configuration: configuration, location: "test").encode(PostgresHarness.tokens("from release 1")),
                              as: UTF8.self)
        for statement in [
            "CREATE TABLE session_service_schema (singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton), version integer NOT NULL)",
            PostgresSchema.sessions, PostgresSchema.pending, "INSERT INTO session_service_schema (version) VALUES (1)",
        ] { _ = try await old.rawRows(statement) }
        _ = try await old.rawRows("INSERT INTO session_service_sessions (issuer, client_id, account, envelope, version) VALUES ($1, $2, '', $3, 7)",
                                  [configuration.issuer.absoluteString, configuration.clientID, envelope])
        _ = try await old.rawRows("INSERT INTO session_service_pending_authorizations VALUES ('digest', 'i', 'c', '{}', now() + interval '1 hour')")

        let upgraded = try PostgresHarness.database(extra: "dbname=\(name)")
        let tokens = try await PostgresTokenStore(database: upgraded, configuration: configuration).load()
        XCTAssertEqual(tokens?.accessToken, "from release 1")
        let rows = try await old.rawRows("SELECT envelope, version FROM session_service_sessions")
        XCTAssertTrue(rows.first?[0]?.hasPrefix("s1.fleet.") == true)
        XCTAssertEqual(rows.first?[1], "8")
        let version = try await old.rawRows("SELECT version FROM session_service_schema")
        XCTAssertEqual(version, [["\(PostgresSchema.version)"]])
        let pending = try await old.rawRows("SELECT count(*) FROM session_service_pending_authorizations")
        XCTAssertEqual(pending, [["0"]])
    }

    /// A 64 MiB row is refused by its size in the query: this process never holds it.
    func testAnOversizedRowIsRefusedWithoutBeingRead() async throws {
        let configuration = try PostgresHarness.configuration()
        let database = try PostgresHarness.database()
        try await database.prepare()
        _ = try await PostgresHarness.admin().rows("""
            INSERT INTO session_service_sessions (issuer, client_id, account, envelope, version) VALUES ($1, $2, '', 's1.fleet.' || repeat('A', 67108864), 1)
            """, [configuration.issuer.absoluteString, configuration.clientID])
        _ = try await database.rows("SELECT 1")
        let before = try Self.resetPeakMemory()
        let error = await sessionError { _ = try await PostgresTokenStore(database: database, configuration: configuration).load() }
        let grown = try Self.peakMemory() - before
        XCTAssertEqual(error?.code, .storageCorrupt)
        XCTAssertTrue(error?.message.contains("larger than 1 MiB") == true, error?.message ?? "")
        XCTAssertLessThan(grown, 16 << 20, "the row was not read: the peak grew by \(grown >> 20) MiB")
    }

    func testListingTheAccountsReadsPageByPage() async throws {
        let configuration = try PostgresHarness.configuration()
        let store = PostgresAccountStore(database: try PostgresHarness.database(), configuration: configuration)
        let count = PostgresAccountStore.page * 2 + 30
        for index in 0..<count {
            try await store.tokenStore(forSubject: "user-\(index)").save(PostgresHarness.tokens("token-\(index)", subject: "user-\(index)"))
        }
        let listed = try await store.storedSessions()
        XCTAssertEqual(Set(listed.compactMap(\.subject)), Set((0..<count).map { "user-\($0)" }))
    }

    /// Resets this process's peak resident size (Linux: `5` to /proc/self/clear_refs) and returns
    /// the size now, in bytes.
    private static func resetPeakMemory() throws -> Int {
        try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        return try peakMemory()
    }

    private static func peakMemory() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") else { throw XCTSkip("no VmHWM") }
        return kilobytes * 1024
    }
}
