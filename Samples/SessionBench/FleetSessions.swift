#if canImport(CLibPQ)
import Dispatch
import Foundation
import SessionCore
import SessionPostgres
import SessionTesting

/// Sessions shared by a fleet through PostgreSQL (`--postgres FILE`, the file holding a connection
/// string): how many refresh requests four node processes make when every session has expired,
/// what PostgreSQL costs a sign-in and a request's restore beside the in-memory store, and what the
/// refresh lease adds to a refresh. Tests/Postgres/run.sh runs it against its throw-away cluster.
enum FleetSessions {
    /// The hidden argument that makes session-bench one node of the fleet (PostgresTests use it too).
    static let nodeFlag = "--fleet-node"
    static let nodes = 4

    static func run(_ options: BenchOptions, connectionStringFile: String, into report: inout Report) async throws {
        let count = options.quick ? 50 : 250
        var settings = LocalProvider.Options()
        settings.users = (0..<count).map { LocalProvider.User(subject: subject($0), email: "user\($0)@example.com", givenName: "User", familyName: "\($0)") }
        settings.requestLogLimit = 20 * count
        let local = try LocalProvider(options: settings)
        defer { local.stop() }
        let configuration = try local.configuration()
        let database = try PostgresDatabase(connectionString: try connectionString(connectionStringFile), sealingKeys: try sealingKeys())
        try await database.prepare()
        let transport = PlatformDefaults.httpTransport()
        let provider = OpenIDProvider(configuration: configuration, transport: transport)
        let agent = HeadlessUserAgent(transport: transport)
        let inPostgres = PostgresAccountStore(database: database, configuration: configuration)
        let inMemory = InMemoryAccountStore()

        // Sign-ins, kept in PostgreSQL or in memory, in alternating rounds.
        let signIns = options.quick ? 5 : 40
        let next = Locked(0)
        func signIn(into store: AccountStore, _ operations: Int) async throws {
            let accounts = AccountSessions(provider: provider, store: store)
            for _ in 0..<operations {
                let index = next.withLock { value -> Int in
                    defer { value = (value + 1) % count }
                    return value
                }
                local.scriptConsent(.approveAs(subject: subject(index)))
                _ = try await accounts.signIn(agent: agent)
            }
        }
        let signInSides = [
            Side(name: "fleet.sign-in.postgres") { try await signIn(into: inPostgres, $0) },
            Side(name: "fleet.sign-in.in-memory") { try await signIn(into: inMemory, $0) },
        ]
        let signInTimings = try await measure(rounds: options.rounds, operations: signIns, signInSides)
        report.add(signInTimings, signInSides, rounds: options.rounds, operations: signIns)
        report.add(ratio: "ratio.fleet.sign-in.postgres-vs-in-memory", signInTimings, 0, to: 1, goal: nil)

        // Every account signed in, in both stores.
        for index in 0..<count {
            local.scriptConsent(.approveAs(subject: subject(index)), .approveAs(subject: subject(index)))
            _ = try await AccountSessions(provider: provider, store: inPostgres).signIn(agent: agent)
            _ = try await AccountSessions(provider: provider, store: inMemory).signIn(agent: agent)
        }

        // A request on a node that has not served this session: restore it, then valid tokens.
        let restores = options.quick ? 50 : 500
        func restore(from store: AccountStore, _ operations: Int) async throws {
            for operation in 0..<operations {
                let client = SessionClient(provider: provider, store: try store.tokenStore(forSubject: subject(operation % count)))
                guard try await client.loadStoredSession() != nil else { throw SessionError.noSessionForBench }
                _ = try await client.validTokens()
            }
        }
        let restoreSides = [
            Side(name: "fleet.restore-and-valid-tokens.postgres") { try await restore(from: inPostgres, $0) },
            Side(name: "fleet.restore-and-valid-tokens.in-memory") { try await restore(from: inMemory, $0) },
        ]
        let restoreTimings = try await measure(rounds: options.rounds, operations: restores, restoreSides)
        report.add(restoreTimings, restoreSides, rounds: options.rounds, operations: restores)
        report.add(ratio: "ratio.fleet.restore-and-valid-tokens.postgres-vs-in-memory", restoreTimings, 0, to: 1, goal: nil)

        // What sealing a row costs: a signed-in session's envelope (ID token, refresh token),
        // sealed and opened as the store does, beside the restore it is part of.
        guard let session = try await inMemory.tokenStore(forSubject: subject(0)).load() else { throw SessionError.noSessionForBench }
        let envelope = try StoredSessionCodec(configuration: configuration, location: "bench").encode(session)
        let seal = PostgresRowSeal(keys: database.sealingKeys)
        let row = PostgresRowSeal.Row(table: "session_service_sessions", columns: [configuration.issuer.absoluteString, configuration.clientID, "bench"])
        let sealed = try seal.seal(envelope, for: row)
        let sealings = options.quick ? 1_000 : 20_000
        let sealSides = [
            Side(name: "fleet.row.seal") { for _ in 0..<$0 { _ = try seal.seal(envelope, for: row) } },
            Side(name: "fleet.row.open") { for _ in 0..<$0 { _ = try seal.open(sealed, for: row, location: "bench") } },
        ]
        let sealTimings = try await measure(rounds: options.rounds, operations: sealings, sealSides)
        report.add(sealTimings, sealSides, rounds: options.rounds, operations: sealings)
        report.add("fleet.row.open-share-of-restore", sealTimings.median(1) / restoreTimings.median(0) * 100, "%",
                   "opening the sealed row (\(envelope.count) bytes) as a share of a restore from PostgreSQL, same run")

        // The fresh path on a node that restored the session: reading the row again at every call,
        // at most every 5 s (the default), or not at all (in memory).
        func accounts(recheckingEvery interval: TimeInterval) throws -> PostgresAccountStore {
            var recheck = PostgresDatabase.Options()
            recheck.sessionRecheckInterval = interval
            return PostgresAccountStore(database: try PostgresDatabase(connectionString: try connectionString(connectionStringFile),
                                                                       sealingKeys: database.sealingKeys, options: recheck),
                                        configuration: configuration)
        }
        func restored(from store: AccountStore, _ index: Int) async throws -> SessionClient {
            let client = SessionClient(provider: provider, store: try store.tokenStore(forSubject: subject(index)))
            guard try await client.loadStoredSession() != nil else { throw SessionError.noSessionForBench }
            return client
        }
        let everyCall = try await restored(from: try accounts(recheckingEvery: 0), 2)
        let everyFive = try await restored(from: try accounts(recheckingEvery: 5), 2)
        let inMemoryFresh = try await restored(from: inMemory, 2)
        let freshCalls = options.quick ? 200 : 2_000
        let freshSides = [
            Side(name: "fleet.valid-tokens.fresh.postgres-recheck-every-call") { for _ in 0..<$0 { _ = try await everyCall.validTokens() } },
            Side(name: "fleet.valid-tokens.fresh.postgres-recheck-every-5s") { for _ in 0..<$0 { _ = try await everyFive.validTokens() } },
            Side(name: "fleet.valid-tokens.fresh.in-memory") { for _ in 0..<$0 { _ = try await inMemoryFresh.validTokens() } },
        ]
        let freshTimings = try await measure(rounds: options.rounds, operations: freshCalls, freshSides)
        report.add(freshTimings, freshSides, rounds: options.rounds, operations: freshCalls)
        report.add(ratio: "ratio.fleet.valid-tokens.fresh.recheck-every-5s-vs-in-memory", freshTimings, 1, to: 2, goal: nil)

        // A local sign-out on one node (its row deleted, the provider not told), seen by a node that
        // rereads every second and is called every 10 ms meanwhile, as a busy server is.
        let watching = try await restored(from: try accounts(recheckingEvery: 1), 1)
        _ = try await watching.validTokens()
        let signedOutAt = DispatchTime.now().uptimeNanoseconds
        try await inPostgres.tokenStore(forSubject: subject(1)).clear()
        var seenAfter: Double?
        while seenAfter == nil {
            do {
                _ = try await watching.validTokens()
                try await Task.sleep(nanoseconds: 10_000_000)
            } catch {
                seenAfter = Double(DispatchTime.now().uptimeNanoseconds - signedOutAt) / 1e9
            }
        }
        report.add("fleet.sign-out-seen-elsewhere.recheck-every-1s", seenAfter ?? 0, "s",
                   "from a local sign-out on one node to the end of the session on another that rereads the row every second")
        local.scriptConsent(.approveAs(subject: subject(1)))
        _ = try await AccountSessions(provider: provider, store: inPostgres).signIn(agent: agent)

        // A refresh with the lease and without it, on the same rows.
        var withoutLease = inPostgres
        withoutLease.takesLease = false
        func refresh(_ store: PostgresAccountStore, _ operations: Int) async throws {
            for operation in 0..<operations {
                let client = SessionClient(provider: provider, store: try store.tokenStore(forSubject: subject(operation % count)))
                _ = try await client.loadStoredSession()
                _ = try await client.refresh()
            }
        }
        let refreshes = options.quick ? 10 : 100
        let refreshSides = [
            Side(name: "fleet.refresh.with-lease") { try await refresh(inPostgres, $0) },
            Side(name: "fleet.refresh.without-lease") { try await refresh(withoutLease, $0) },
        ]
        let refreshTimings = try await measure(rounds: options.rounds, operations: refreshes, refreshSides)
        report.add(refreshTimings, refreshSides, rounds: options.rounds, operations: refreshes)
        report.add("fleet.lease-added-latency", (refreshTimings.median(0) - refreshTimings.median(1)) / 1000, "ms",
                   "what taking and releasing the lease adds to one refresh (median of rounds)")

        // The window in which a node's death loses a session: from the provider's answer to a
        // refresh (the old refresh token retired) to the rotated tokens saved in the row.
        let answered = Locked<UInt64>(0)
        local.afterAnswering(.token) { answered.value = DispatchTime.now().uptimeNanoseconds }
        var windows: [Double] = []
        for operation in 0..<refreshes {
            let client = SessionClient(provider: provider, store: try inPostgres.tokenStore(forSubject: subject(operation % count)))
            _ = try await client.loadStoredSession()
            _ = try await client.refresh()
            windows.append(Double(DispatchTime.now().uptimeNanoseconds - answered.value) / 1000)
        }
        local.afterAnswering(.token, nil)
        report.add("fleet.refresh.death-window", SessionBench.median(windows), "µs",
                   "from the provider's answer to a refresh to its rotated tokens saved (median of \(refreshes)): a node killed then loses the session")

        // Every session expired; four node processes use all of them at once.
        for index in 0..<count {
            let client = SessionClient(provider: provider, store: try inPostgres.tokenStore(forSubject: subject(index)))
            if let tokens = try await client.loadStoredSession() { try await client.setTokens(tokens.withExpiry(Date(timeIntervalSinceNow: -60))) }
        }
        let before = refreshRequests(local)
        let nodeOutputs = try await runNodes(connectionStringFile: connectionStringFile, issuer: local.issuer, count: count)
        let perSession = Double(refreshRequests(local) - before) / Double(count)
        report.check("fleet.refresh-requests-per-session.\(nodes)-nodes-\(count)-sessions", expected: "1.00",
                     actual: String(format: "%.2f", perSession))
        report.check("fleet.nodes-continue-on-the-rotated-tokens", expected: "every node, every session",
                     actual: nodeOutputs.allSatisfy { $0 == "done ok \(count)" } && local.refreshTokenReuses == 0
                         ? "every node, every session" : "\(nodeOutputs), \(local.refreshTokenReuses) reuses")
    }

    static func subject(_ index: Int) -> String { String(format: "user-%03d", index) }

    static func connectionString(_ file: String) throws -> String {
        try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The environment variable naming the file (32 bytes, readable by its owner alone) that holds
    /// the fleet's sealing key: Tests/Postgres/run.sh makes one; without it, the first process
    /// makes one and its node processes inherit where it is.
    static let sealingKeyFileVariable = "SESSION_POSTGRES_SEALING_KEY_FILE"

    /// The keys every node of the fleet seals its rows with: the one in the key file.
    static func sealingKeys() throws -> SealingKeys {
        if let path = ProcessInfo.processInfo.environment[sealingKeyFileVariable] {
            return try SealingKeys(current: SealingKey(id: "fleet", bytes: try Data(contentsOf: URL(fileURLWithPath: path))))
        }
        let key = try SealingKey.generate(id: "fleet")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("session-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let file = directory.appendingPathComponent("sealing-key")
        guard FileManager.default.createFile(atPath: file.path, contents: key.bytes, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown)
        }
        setenv(sealingKeyFileVariable, file.path, 1)
        return try SealingKeys(current: key)
    }

    private static func refreshRequests(_ local: LocalProvider) -> Int {
        local.requests(to: .token).filter { $0.parameters["grant_type"] == "refresh_token" }.count
    }

    private static func runNodes(connectionStringFile: String, issuer: URL, count: Int) async throws -> [String] {
        let children = try (0..<nodes).map { _ in
            try RacingProcess([nodeFlag, connectionStringFile, issuer.absoluteString, "\(count)"])
        }
        for child in children where child.readLine() != "ready" { throw CocoaError(.executableLoad) }
        for child in children { child.send("go") }
        return children.map { $0.readLine() ?? "(no answer)" }
    }

    /// One node: `CONNINFO-FILE ISSUER COUNT [no-lease] [lease-bound=SECONDS]`, its sealing key in
    /// the file ``sealingKeyFileVariable`` names. It opens the accounts user-000 ...
    /// user-(COUNT-1) of LocalProvider's demo client, prints "ready", waits for a line, then uses
    /// every session at once, in a random order, two callers each: valid tokens, then the UserInfo.
    /// It prints "done ok N" and, when some failed, " failed CODE:COUNT ..."; `no-lease`: its
    /// refreshes take no lease (to show what the lease prevents); `lease-bound`: how long a lease
    /// of a node that died blocks the others.
    static func node(_ arguments: [String]) async -> Never {
        await NodeProcess.run {
            guard arguments.count >= 3, let issuer = URL(string: arguments[1]), let count = Int(arguments[2]),
                  let redirect = LocalProvider.Client.demo.redirectURIs.first else {
                say("usage: session-bench \(nodeFlag) CONNINFO-FILE ISSUER COUNT [no-lease]")
                exit(2)
            }
            let configuration = try SessionConfiguration(issuer: issuer, clientID: LocalProvider.Client.demo.id, redirectURI: redirect)
            let provider = OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 20))
            var options = PostgresDatabase.Options()
            for argument in arguments.dropFirst(3) where argument.hasPrefix("lease-bound=") {
                options.leaseBound = TimeInterval(argument.dropFirst("lease-bound=".count)) ?? options.leaseBound
            }
            var store = PostgresAccountStore(database: try PostgresDatabase(connectionString: try connectionString(arguments[0]),
                                                                            sealingKeys: try sealingKeys(), options: options),
                                             configuration: configuration)
            store.takesLease = !arguments.dropFirst(3).contains("no-lease")
            let accounts = store
            try await accounts.database.prepare()
            say("ready")
            _ = readLine()
            let outcomes = await withTaskGroup(of: String.self) { group in
                for index in (0..<count).shuffled() {
                    group.addTask {
                        do {
                            let client = SessionClient(provider: provider, store: try accounts.tokenStore(forSubject: subject(index)))
                            guard try await client.loadStoredSession() != nil else { return "none" }
                            async let first = client.validTokens()
                            async let second = client.validTokens()
                            _ = try await (first, second)
                            _ = try await client.userInfo()
                            return "ok"
                        } catch {
                            return (error as? SessionError)?.code.rawValue ?? "\(type(of: error))"
                        }
                    }
                }
                var tally: [String: Int] = [:]
                for await outcome in group { tally[outcome, default: 0] += 1 }
                return tally
            }
            let failed = outcomes.filter { $0.key != "ok" }.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }
            say("done ok \(outcomes["ok"] ?? 0)" + (failed.isEmpty ? "" : " failed " + failed.joined(separator: " ")))
        }
    }

    private static func say(_ line: String) { NodeProcess.say(line) }
}

private extension SessionError {
    static var noSessionForBench: SessionError { SessionError(.notAuthenticated, process: .authentication, message: "no stored session") }
}
#endif
