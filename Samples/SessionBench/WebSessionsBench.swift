import Foundation
import SessionCore
#if canImport(CLibPQ)
import SessionPostgres
#endif
import SessionTesting
import SessionWebApp

/// Web sessions (SessionWebApp) against LocalProvider over loopback: how fast browsers sign in
/// through the layer, what finding a request's session costs, how soon a back-channel logout
/// received by one instance ends the session on another, and what the sweep costs.
enum WebSessionsBench {
    private static let callback = URL(string: "https://app.example.test/callback")!
    private static let origin = URL(string: "https://app.example.test")!

    /// A browser's whole sign-in through `layer`; the identifier its session cookie holds.
    private static func signIn(_ layer: WebSessions, agent: HeadlessUserAgent) async throws -> (identifier: String, session: WebSession) {
        let begun = try await layer.beginSignIn()
        let signInCookie = String(begun.setCookies[0].prefix { $0 != ";" })
        let returned = try await agent.authorize(url: begun.location ?? origin, redirectURI: callback)
        let signIn = try await layer.completeSignIn(WebRequest(url: returned, cookie: signInCookie))
        let sessionCookie = signIn.response.setCookies[0].prefix { $0 != ";" }
        return (String(sessionCookie.split(separator: "=", maxSplits: 1)[1]), signIn.session)
    }

    private static func request(_ identifier: String) -> WebRequest {
        WebRequest(url: origin, cookie: "__Host-session=\(identifier)")
    }

    /// `count` sign-ins through `layer`, sixteen at a time; their identifiers and the seconds taken.
    private static func signIns(_ count: Int, _ layer: WebSessions, agent: HeadlessUserAgent) async throws -> ([String], Double) {
        let started = DispatchTime.now().uptimeNanoseconds
        var identifiers: [String] = []
        for batch in stride(from: 0, to: count, by: 16) {
            identifiers += try await withThrowingTaskGroup(of: String.self) { group in
                for _ in batch..<min(batch + 16, count) { group.addTask { try await signIn(layer, agent: agent).identifier } }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
        }
        return (identifiers, Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
    }

    /// The median time of one `session(for:)` over the sessions of `identifiers`, in µs, and how
    /// many of them it found.
    private static func lookups(_ identifiers: [String], _ layer: WebSessions, rounds: Int) async throws -> (Double, Int) {
        var found = 0
        for identifier in identifiers where try await layer.session(for: request(identifier)) != nil { found += 1 }
        var times: [Double] = []
        for round in 0..<rounds {
            let identifier = identifiers[round % identifiers.count]
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try await layer.session(for: request(identifier))
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000)
        }
        return (SessionBench.median(times), found)
    }

    private static func provider(clock: SessionClock, count: Int) throws -> LocalProvider {
        var settings = LocalProvider.Options()
        settings.clock = clock
        settings.requestLogLimit = 4 * count + 1_000
        settings.accessTokenLifetime = 24 * 3600
        settings.clients = [LocalProvider.Client(id: "web-bench-\(UUID().uuidString)", redirectURIs: [callback])]
        return try LocalProvider(options: settings)
    }

    private static func layer(_ configuration: SessionConfiguration, clock: SessionClock, store: WebSessionStore,
                              pending: PendingAuthorizationPlace) throws -> WebSessions {
        try WebSessions(provider: OpenIDProvider(configuration: configuration, transport: PlatformDefaults.httpTransport(), clock: clock),
                        store: store, pending: pending, options: WebSessionOptions(appOrigin: origin))
    }

    /// One instance, sessions in memory.
    static func inMemory(_ options: BenchOptions, into report: inout Report) async throws {
        let count = options.quick ? 100 : 2_000
        let clock = ManualClock()
        let local = try provider(clock: clock, count: count)
        defer { local.stop() }
        let web = try layer(try local.configuration(), clock: clock, store: InMemoryWebSessionStore(),
                            pending: .sealed(try AuthorizationSealingKey.generate()))
        let (identifiers, seconds) = try await signIns(count, web, agent: HeadlessUserAgent(transport: PlatformDefaults.httpTransport()))
        report.add("web.sessions-created-per-second.memory", Double(count) / seconds, "/s",
                   "\(count) browser sign-ins through WebSessions (login, provider, callback), 16 at a time, sessions in memory")
        let (lookup, found) = try await lookups(identifiers, web, rounds: options.quick ? 1_000 : 20_000)
        report.add("web.lookup.memory", lookup, "µs", "a request's session(for:) by its cookie, sessions in memory (median)")
        report.check("web.sessions-found.memory.\(count)-sessions", expected: "\(count)", actual: "\(found)")
        clock.advance(by: 31 * 60)
        let start = DispatchTime.now().uptimeNanoseconds
        let swept = try await web.sweep(limit: count)
        report.add("web.sweep.memory.\(count)-expired", Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6, "ms",
                   "the sweep deleting \(count) sessions idle past 30 minutes, in memory")
        report.check("web.swept.memory.\(count)-expired", expected: "\(count)", actual: "\(swept.deleted)")
    }

    #if canImport(CLibPQ)
    /// Two instances on one PostgreSQL: sign-ins, lookups, back-channel logout from one instance to
    /// the other's next request, the sweep of 10,000 expired sessions.
    static func postgres(_ options: BenchOptions, connectionStringFile: String, into report: inout Report) async throws {
        let count = options.quick ? 50 : 500
        let clock = ManualClock()
        let local = try provider(clock: clock, count: count)
        defer { local.stop() }
        let configuration = try local.configuration()
        func instance() throws -> (WebSessions, PostgresWebSessionStore) {
            let database = try PostgresDatabase(connectionString: try FleetSessions.connectionString(connectionStringFile),
                                                sealingKeys: try FleetSessions.sealingKeys())
            let store = PostgresWebSessionStore(database: database, configuration: configuration)
            return (try layer(configuration, clock: clock, store: store,
                              pending: .store(PostgresPendingAuthorizations(database: database, configuration: configuration))), store)
        }
        let ((first, store), (second, _)) = (try instance(), try instance())
        let agent = HeadlessUserAgent(transport: PlatformDefaults.httpTransport())
        let (identifiers, seconds) = try await signIns(count, first, agent: agent)
        report.add("web.sessions-created-per-second.postgres", Double(count) / seconds, "/s",
                   "\(count) browser sign-ins through WebSessions, 16 at a time, sessions in PostgreSQL")
        let (lookup, found) = try await lookups(identifiers, second, rounds: options.quick ? 200 : 5_000)
        report.add("web.lookup.postgres", lookup, "µs", "a request's session(for:) on another instance than the one that made it, in PostgreSQL (median)")
        report.check("web.sessions-found.postgres.\(count)-sessions", expected: "\(count)", actual: "\(found)")

        // Back-channel logout received by the first instance; the second instance's next request.
        var latencies: [Double] = []
        var evicted = 0
        let logoutURL = origin.appendingPathComponent("backchannel-logout")
        for _ in 0..<(options.quick ? 20 : 200) {
            let (identifier, session) = try await signIn(first, agent: agent)
            _ = try await second.session(for: request(identifier))
            let token = try local.logoutToken(subject: session.subject, sessionID: session.providerSessionID, clientID: configuration.clientID)
            let start = DispatchTime.now().uptimeNanoseconds
            _ = await first.backChannelLogout(WebRequest(method: "POST", url: logoutURL), body: Data("logout_token=\(token)".utf8))
            if try await second.session(for: request(identifier)) == nil { evicted += 1 }
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        latencies.sort()
        report.add("web.back-channel-logout-to-eviction.p50", latencies[latencies.count / 2], "ms",
                   "a logout token received by one instance until the other instance's next request finds no session (median)")
        report.add("web.back-channel-logout-to-eviction.p99", latencies[min(latencies.count - 1, latencies.count * 99 / 100)], "ms",
                   "the same, 99th percentile")
        report.check("web.back-channel-logout-evicted.\(latencies.count)-logouts", expected: "\(latencies.count)", actual: "\(evicted)")

        // The sweep of expired sessions written straight into the store.
        let expired = options.quick ? 300 : 10_000
        let tokens = SessionTokens(accessToken: "bench-access", refreshToken: "bench-refresh", idToken: nil, expiresAt: nil, scopes: [], subject: "sweep")
        let longAgo = clock.now().addingTimeInterval(-3600)
        for batch in stride(from: 0, to: expired, by: 16) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in batch..<min(batch + 16, expired) {
                    group.addTask {
                        let id = WebSessionID(digest: try PlatformCrypto.hexDigest(of: UUID().uuidString, bytes: 32))
                        try await store.insert(WebSessionRecord(id: id, subject: "sweep", providerSessionID: nil, createdAt: longAgo, lastUsedAt: longAgo),
                                               tokens: tokens)
                    }
                }
                try await group.waitForAll()
            }
        }
        let start = DispatchTime.now().uptimeNanoseconds
        let swept = try await first.sweep(limit: expired)
        report.add("web.sweep.postgres.\(expired)-expired", Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6, "ms",
                   "the sweep deleting \(expired) expired sessions and their token rows, in PostgreSQL, one transaction")
        report.check("web.swept.postgres.\(expired)-expired", expected: "\(expired)", actual: "\(swept.deleted)")
    }
    #endif
}
