#if canImport(CLibPQ)
import Dispatch
import Foundation
import SessionCore
import SessionPostgres
import SessionTesting

/// A fleet that loses nothing, measured (`--postgres FILE`): four node processes serve the same
/// users' sessions from one PostgreSQL for a minute or more, their clocks 5 s and 2 s ahead and
/// behind, against a provider with django-oauth-toolkit's rotation (a refresh revokes the access
/// token issued with the refresh token it spends) and introspection for the fleet's confidential
/// client; a node is killed (SIGKILL) every few seconds and started again, and PostgreSQL is
/// restarted once when the run is given a way to (`SESSION_POSTGRES_RESTART`, as
/// Tests/Postgres/run.sh does).
///
/// Printed: the refreshes per session per expiry (a token's planned life: lifetime − leeway), the
/// most refreshes of one session within the shortest gap the fastest clock allows between two (a
/// storm shows as more than one), the calls that failed for the database (after the restart
/// too), the sessions lost and why, and the refresh tokens sent twice (a reuse the provider sees).
enum FleetChaos {
    /// The hidden argument that makes session-bench one node of this fleet.
    static let nodeFlag = "--fleet-chaos-node"
    static let clientID = "fleet-app"
    static let redirectURI = URL(string: "http://127.0.0.1/fleet/callback")!
    /// The nodes' clock offsets, in seconds; a node started again keeps its predecessor's.
    static let skews: [TimeInterval] = [5, -5, 2, -2]
    /// The access tokens' lifetime; refreshed at half of it (the leeway is at most half).
    static let lifetime: TimeInterval = 30
    /// How long a dead node's lease keeps the others waiting.
    static let leaseBound: TimeInterval = 3

    static func run(_ options: BenchOptions, connectionStringFile: String, into report: inout Report) async throws {
        let users = options.quick ? 20 : 40
        let duration: TimeInterval = options.quick ? 65 : 150
        let secret = try SealingKey.generate(id: "chaos").bytes.base64EncodedString()
        var settings = LocalProvider.Options()
        settings.users = (0..<users).map { LocalProvider.User(subject: subject($0), email: "u\($0)@example.com", givenName: "User", familyName: "\($0)") }
        settings.clients = [LocalProvider.Client(id: clientID, redirectURIs: [redirectURI], authentication: .clientSecretBasic(secret))]
        settings.accessTokenLifetime = lifetime
        settings.revokesAccessTokenOnRefresh = true
        settings.requestLogLimit = 200_000
        let local = try LocalProvider(options: settings)
        defer { local.stop() }

        // The secret reaches the nodes in a file only this user can read, never in their environment.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("session-bench-chaos-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: directory) }
        let secretFile = directory.appendingPathComponent("client-secret")
        guard FileManager.default.createFile(atPath: secretFile.path, contents: Data(secret.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown)
        }

        let configuration = try configuration(issuer: local.issuer, secret: secret)
        let database = try PostgresDatabase(connectionString: try connectionString(connectionStringFile), sealingKeys: try FleetSessions.sealingKeys())
        let store = PostgresAccountStore(database: database, configuration: configuration)
        let accounts = AccountSessions(provider: OpenIDProvider(configuration: configuration), store: store)
        for index in 0..<users {
            local.scriptConsent(.approveAs(subject: subject(index)))
            _ = try await accounts.signIn(agent: HeadlessUserAgent())
        }

        // Every node, a killed one too, notes each loss it hears of here at once.
        let lossFile = directory.appendingPathComponent("losses")
        guard FileManager.default.createFile(atPath: lossFile.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown)
        }
        func start(skew: TimeInterval) throws -> RacingProcess {
            let node = try RacingProcess([nodeFlag, connectionStringFile, local.issuer.absoluteString, "\(users)", secretFile.path, "\(skew)",
                                          lossFile.path])
            guard node.readLine() == "ready" else { throw CocoaError(.executableLoad) }
            node.send("go")
            return node
        }
        var nodes = try skews.map { try start(skew: $0) }
        let began = Date()
        var kills = 0
        var restarted = false
        let restart = ProcessInfo.processInfo.environment["SESSION_POSTGRES_RESTART"]
        while Date().timeIntervalSince(began) < duration {
            try await Task.sleep(nanoseconds: UInt64.random(in: 4_000_000_000...8_000_000_000))
            let victim = Int.random(in: 0..<nodes.count)
            nodes[victim].kill()
            kills += 1
            nodes[victim] = try start(skew: skews[victim])
            if !restarted, let restart, Date().timeIntervalSince(began) > duration / 2 {
                _ = system(restart)
                restarted = true
            }
        }
        for node in nodes { node.send("stop") }
        let tallies = nodes.map { Tally($0.readLine() ?? "") }
        let elapsed = Date().timeIntervalSince(began)

        // From the provider's record: refreshes per session per expiry (a token's planned life:
        // lifetime − leeway), and the most of one session within the shortest gap the fastest clock
        // allows between two (that life less its 5 s lead): a storm shows as more than one.
        let expiry = lifetime - lifetime / 2
        let shortestGap = expiry - (skews.max() ?? 0)
        let bySubject = Dictionary(grouping: local.refreshes, by: \.subject).mapValues { $0.map(\.at).sorted() }
        let mostWithinOneGap = bySubject.values.map { times in
            times.indices.map { start in times[start...].prefix { $0.timeIntervalSince(times[start]) < shortestGap }.count }.max() ?? 0
        }.max() ?? 0
        let perExpiry = Double(local.refreshes.count) / (Double(users) * elapsed / expiry)
        var lost = 0
        for index in 0..<users {
            let stored = (try? await store.tokenStore(forSubject: subject(index)).load()) ?? nil
            if stored == nil || stored?.inFlight != nil { lost += 1 }
        }
        let storageFailures = tallies.reduce(0) { $0 + ($1.failed["storageFailed"] ?? 0) }
        let heard = ((try? String(contentsOf: lossFile, encoding: .utf8)) ?? "").split(separator: "\n")
            .reduce(into: [String: Int]()) { $0[String($1), default: 0] += 1 }
        let heardText = heard.isEmpty ? "none" : heard.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")

        report.add("fleet.chaos.run", elapsed, "s", "\(skews.count) nodes (clocks \(skews.map { String(format: "%+.0f", $0) }.joined(separator: " ")) s), "
                   + "\(users) sessions, \(Int(lifetime)) s tokens, \(kills) kills, PostgreSQL restarted: \(restarted ? "once" : "no")")
        report.add("fleet.chaos.calls", Double(tallies.reduce(0) { $0 + $1.ok }), "ok",
                   "calls of the nodes alive at the end; failed: \(tallies.map(\.failedText).joined(separator: " | "))")
        report.add("fleet.chaos.refreshes-per-session-per-expiry", perExpiry, "",
                   "\(local.refreshes.count) refreshes; an expiry is \(Int(expiry)) s (the node 5 s ahead refreshes first)")
        report.check("fleet.chaos.most-refreshes-of-a-session-within-\(Int(shortestGap))-s", expected: "1", actual: "\(mostWithinOneGap)")
        report.check("fleet.chaos.refresh-tokens-sent-twice", expected: "0", actual: "\(local.refreshTokenReuses)")
        report.check("fleet.chaos.calls-failed-for-the-database", expected: "0", actual: "\(storageFailures)")
        report.add("fleet.chaos.sessions-lost", Double(lost), "sessions",
                   "why the nodes heard, killed ones included: \(heardText) ('elsewhere': another node lost it first); "
                   + "a session is lost only when a node died after the provider answered its refresh and before the rotated tokens were saved")
        report.check("fleet.chaos.sessions-lost-though-the-provider-could-tell", expected: "0", actual: "\(heard["other"] ?? 0)")
    }

    static func subject(_ index: Int) -> String { String(format: "chaos-%03d", index) }

    /// Why a node heard that a session was lost. With introspection a session is lost only when
    /// its refresh token was spent ("spent"). A node that finds the session already ended by
    /// another ("elsewhere") hears of the same loss again: the node that lost it counts it. Any
    /// other reason ("other") is a loss the provider could have prevented.
    static func lossReason(_ error: SessionError) -> String {
        if error.message.contains("no longer active") { return "spent" }
        if error.message.contains("another process ended the session") { return "elsewhere" }
        return "other"
    }

    private static func connectionString(_ file: String) throws -> String {
        try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func configuration(issuer: URL, secret: String) throws -> SessionConfiguration {
        try SessionConfiguration(issuer: issuer, clientID: clientID, redirectURI: redirectURI, clientAuthentication: .clientSecretBasic(secret))
    }

    /// What a node printed when stopped: `done ok=N failed=CODE:N,...`.
    struct Tally {
        var ok = 0
        var failed: [String: Int] = [:]

        init(_ line: String) {
            for field in line.split(separator: " ") {
                let parts = field.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { continue }
                switch parts[0] {
                case "ok": ok = Int(parts[1]) ?? 0
                case "failed": failed = Self.counts(parts[1])
                default: break
                }
            }
        }

        private static func counts(_ text: String) -> [String: Int] {
            Dictionary(text.split(separator: ",").compactMap { pair -> (String, Int)? in
                let parts = pair.split(separator: ":")
                guard parts.count == 2, let count = Int(parts[1]) else { return nil }
                return (String(parts[0]), count)
            }, uniquingKeysWith: +)
        }

        var failedText: String { failed.isEmpty ? "none" : failed.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") }
    }

    /// One node: `CONNINFO-FILE ISSUER COUNT SECRET-FILE SKEW LOSS-FILE`. It prints "ready", waits
    /// for a line, then uses the sessions chaos-000 ... at random, eight callers at once, each call
    /// the UserInfo, until it reads another line; then it prints its tally and ends. Each loss it
    /// hears of, restoring a session too, goes to LOSS-FILE at once, so a node killed later has
    /// left it there.
    static func node(_ arguments: [String]) async -> Never {
        await NodeProcess.run {
            guard arguments.count == 6, let issuer = URL(string: arguments[1]), let count = Int(arguments[2]),
                  let skew = TimeInterval(arguments[4]) else {
                say("usage: session-bench \(nodeFlag) CONNINFO-FILE ISSUER COUNT SECRET-FILE SKEW LOSS-FILE")
                exit(2)
            }
            // Opened once, before anything can be lost: a node that could not note its losses
            // would make the invariant hold by silence.
            let losses = open(arguments[5], O_WRONLY | O_APPEND)
            guard losses >= 0 else { throw CocoaError(.fileWriteNoPermission) }
            let secret = try String(contentsOfFile: arguments[3], encoding: .utf8)
            let clock = OffsetClock(offset: skew)
            let configuration = try configuration(issuer: issuer, secret: secret)
            let provider = OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 20), clock: clock)
            var options = PostgresDatabase.Options()
            options.leaseBound = leaseBound
            let store = PostgresAccountStore(database: try PostgresDatabase(connectionString: try connectionString(arguments[0]),
                                                                            sealingKeys: try FleetSessions.sealingKeys(), options: options),
                                             configuration: configuration)
            let sessions = try (0..<count).map { SessionClient(provider: provider, store: try store.tokenStore(forSubject: subject($0))) }
            for session in sessions {
                // Heard before the session is restored: a predecessor's interrupted refresh is found there.
                await session.setEventHandler { event in
                    guard case .sessionLost(let error) = event else { return }
                    appendLine(lossReason(error), to: losses)
                }
                _ = try? await session.loadStoredSession()
            }
            say("ready")
            _ = readLine()
            let stopped = Locked(false)
            DispatchQueue.global().async {
                _ = readLine()
                stopped.value = true
            }
            let outcomes = await withTaskGroup(of: [String: Int].self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        var tally: [String: Int] = [:]
                        while !stopped.value {
                            let session = sessions.randomElement()!
                            do {
                                _ = try await session.userInfo()
                                tally["ok", default: 0] += 1
                            } catch {
                                tally[(error as? SessionError)?.code.rawValue ?? "\(type(of: error))", default: 0] += 1
                            }
                            try? await Task.sleep(nanoseconds: 20_000_000)
                        }
                        return tally
                    }
                }
                var all: [String: Int] = [:]
                for await tally in group { all.merge(tally, uniquingKeysWith: +) }
                return all
            }
            let failed = outcomes.filter { $0.key != "ok" }.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ",")
            say("done ok=\(outcomes["ok"] ?? 0) failed=\(failed)")
        }
    }

    private static func say(_ line: String) { NodeProcess.say(line) }

    /// Appends `line` to the file open as `descriptor` (`O_APPEND`) in one write, there before the
    /// node can be killed.
    private static func appendLine(_ line: String, to descriptor: Int32) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}

/// A clock `offset` seconds off the system's, as a node whose clock runs ahead or behind.
struct OffsetClock: SessionClock {
    let offset: TimeInterval
    func now() -> Date { Date().addingTimeInterval(offset) }
}
#endif
