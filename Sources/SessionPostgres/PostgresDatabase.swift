#if canImport(CLibPQ)
import CLibPQ
import Dispatch
import Foundation
import SessionCore

/// A PostgreSQL database that the sessions of every node of a service share: the connection
/// string, the keys its rows are sealed with, a small pool of connections, and the schema,
/// created on first use.
///
/// The connection string is the app's (`host=db.internal dbname=app user=sessions sslrootcert=/etc/ssl/db-ca.crt`
/// or a `postgresql://` URI); it is never logged, described or put in an error, and a message
/// that quotes the password's part of it has that part cut out. A database that is not on this
/// machine is reached over TLS that verifies the server (`sslmode=verify-full`) unless the string
/// says otherwise and ``Options/insecurelyAllowsUnverifiedConnections`` allows it.
///
/// Every row the stores write is sealed with ``sealingKeys`` (AES-256-GCM, the row's identity as
/// associated data): the database, its backups and its other roles see no token, and a row a
/// node did not seal is `storageCorrupt`, never used. Give every node the same keys.
///
/// Calls block on the network, so they run on store threads (`BlockingStoreWork`),
/// never the caller's; at most
/// ``Options/maximumConnections`` are open at once, and further calls wait for one without
/// holding a thread, for at most ``Options/connectionWaitTimeout`` and while their task is not
/// cancelled. A connection that broke is dropped with every idle one (a restarted server broke
/// them all), and a call that met the break on a connection of the pool runs once more on a fresh
/// one, so a restart costs no call.
public final class PostgresDatabase: Sendable, CustomStringConvertible {
    /// How the database is used. Each duration is at most a day:
    /// ``init(connectionString:sealingKeys:options:)`` refuses a longer one.
    public struct Options: Sendable {
        /// The most connections open at once (default 8).
        public var maximumConnections = 8
        /// How long a connection attempt may take, in seconds (default 5).
        public var connectTimeout = 5
        /// How long a statement may take before the server cancels it (default 10 s).
        public var statementTimeout: TimeInterval = 10
        /// How long a refresh lease lasts unless its holder renews it, in seconds, by the
        /// database's clock (default 10; see ``PostgresTokenStore``). A live holder renews it every
        /// third of this; a node that died or froze leaves it to the next node after at most this.
        public var leaseBound: TimeInterval = 10
        /// How long a call waits for a connection when ``maximumConnections`` are in use, in
        /// seconds (default 30); then it fails with `storageFailed` instead of waiting on.
        public var connectionWaitTimeout: TimeInterval = 30
        /// How long a call tries again while the database cannot be reached (a restart, a lost
        /// connection, a statement timeout), in seconds (default 5): a restart costs the calls
        /// made meanwhile a wait, not a failure. A refusal (credentials, TLS, a permission) fails
        /// at once. Saves of rotated tokens wait longer (``saveRetryWindow``).
        public var retryWindow: TimeInterval = 5
        /// How long a node that holds a session's rotated tokens keeps trying to save them while
        /// the database cannot be reached (a restart, a lost connection, a statement timeout), in
        /// seconds (default 30): a short outage signs nobody out. After it, the save fails as
        /// ``PostgresTokenStore/save(_:)`` documents.
        public var saveRetryWindow: TimeInterval = 30
        /// How long a node uses a session it read from the database before it reads the row again
        /// on the path where the access token is fresh, in seconds (default 5): a sign-out on
        /// another node — a local one too, which tells the provider nothing — or another account's
        /// sign-in there ends the session on this node within this time, and a refresh made there
        /// is adopted. 0 reads the row at every call (one round trip each); nil never does, and a
        /// session signed out elsewhere is then used here until its access token expires.
        public var sessionRecheckInterval: TimeInterval? = 5
        /// Lets the connection string ask for less than `sslmode=verify-full` for a database that
        /// is not on this machine (`require`, `prefer`, `disable`...): the server is then not
        /// verified, and whoever sits on the way to it can read and change the sessions. Default
        /// false; for a network you trust with the sessions as much as the database itself.
        public var insecurelyAllowsUnverifiedConnections = false

        /// The defaults.
        public init() {}
    }

    private struct Pool {
        var idle: [PostgresConnection] = []
        var open = 0
        /// The calls waiting for a connection, first come first served.
        var waiters: [Waiter] = []
        var lastWaiter = 0
    }

    /// A call waiting for a connection; `id` lets its deadline find it.
    private struct Waiter {
        let id: Int
        let continuation: CheckedContinuation<Handoff, Never>
    }

    /// What a waiting call is given: exactly one of them, by whoever takes it off the waiters.
    private enum Handoff {
        /// A connection given back.
        case connection(PostgresConnection)
        /// The place of a connection that was closed: the waiter opens a new one.
        case place
        /// A place was free by the time the call would have waited: it looks again.
        case freedMeanwhile
        /// ``Options/connectionWaitTimeout`` passed.
        case timedOut
        /// The waiting task was cancelled.
        case cancelled
    }

    /// The libpq keywords and values every connection is opened with: ours first, then the app's
    /// connection string (`dbname`, expanded), whose settings win.
    private let parameters: [(String, String)]
    /// The connection string as parsed: where its password is, to cut it out of messages.
    private let connectionString: PostgresConnectionString?
    /// How the database is used.
    public let options: Options
    /// The keys every row is sealed with.
    public let sealingKeys: SealingKeys
    /// Seals and opens the rows with ``sealingKeys``.
    let seal: PostgresRowSeal
    private let pool = Locked(Pool())
    private let schema = SingleFlight<Int>()
    private let schemaVersion = Locked<Int?>(nil)

    /// The database `connectionString` names, its rows sealed with `sealingKeys`. Nothing is
    /// connected until first needed.
    /// - Throws: `invalidConfiguration` when the connection string cannot be parsed (its text is not
    ///   shown: it may hold a password), when it asks for less than verified TLS to a database
    ///   that is not on this machine (see ``Options/insecurelyAllowsUnverifiedConnections``), or
    ///   when `options` are out of range.
    public init(connectionString: String, sealingKeys: SealingKeys, options: Options = Options()) throws {
        // A day at most: a timer, libpq or the server would trap on or refuse a longer one.
        let day: TimeInterval = 86_400
        guard options.maximumConnections >= 1, (1...Int(day)).contains(options.connectTimeout), (0.001...day).contains(options.statementTimeout),
              (1...day).contains(options.leaseBound), (0.001...day).contains(options.connectionWaitTimeout), (0...day).contains(options.saveRetryWindow),
              (0...day).contains(options.retryWindow), (0...day).contains(options.sessionRecheckInterval ?? 0) else {
            throw SessionError(.invalidConfiguration, process: .configuration,
                               message: "PostgresDatabase.Options out of range (each duration at most a day)")
        }
        let parsed: PostgresConnectionString?
        do {
            parsed = try PostgresConnectionString(connectionString)
        } catch {
            // libpq is missing: the first call says so, naming it.
            parsed = nil
        }
        var security: [(String, String)] = []
        if (try? PostgresConnection.library()) != nil {
            guard let parsed else {
                throw SessionError(.invalidConfiguration, process: .configuration,
                                   message: "the PostgreSQL connection string is not valid (it is not shown: it may hold a password)")
            }
            if let mode = try PostgresTransportSecurity.sslMode(for: parsed.settings, environment: ProcessInfo.processInfo.environment,
                                                                allowsUnverified: options.insecurelyAllowsUnverifiedConnections) {
                security = [("sslmode", mode)]
            }
        }
        self.connectionString = parsed
        self.options = options
        self.sealingKeys = sealingKeys
        seal = PostgresRowSeal(keys: sealingKeys)
        parameters = [
            ("connect_timeout", "\(options.connectTimeout)"),
            ("application_name", "SessionService"),
            // A peer that vanished is noticed in seconds, not hours.
            ("keepalives", "1"), ("keepalives_idle", "5"), ("keepalives_interval", "2"), ("keepalives_count", "3"),
            ("tcp_user_timeout", "\(max(1000, options.connectTimeout * 1000))"),
            ("dbname", connectionString),
        ] + security
    }

    /// Unavailable: every row is sealed with keys the application holds.
    @available(*, unavailable, renamed: "init(connectionString:sealingKeys:options:)",
               message: "rows are sealed: pass the SealingKeys every node of the service shares")
    public convenience init(connectionString: String, options: Options = Options()) throws {
        try self.init(connectionString: connectionString, sealingKeys: SealingKeys(current: SealingKey.generate(id: "unavailable")), options: options)
    }

    /// Never the connection string.
    public var description: String { "PostgresDatabase(connection string not shown)" }

    /// The statements each new connection runs first.
    private var setup: [String] {
        ["SET statement_timeout = \(Int(options.statementTimeout * 1000))", "SET client_min_messages = warning"]
    }

    /// Runs `body` with a connection of the pool on a thread of its own, creating the schema first
    /// if this process has not yet seen it.
    /// - Throws: `storageFailed` saying what was being done (`what`: "read the session") and why.
    /// While the database cannot be reached, the call is tried again for ``Options/retryWindow``.
    func withConnection<T: Sendable>(_ what: String, _ body: @escaping @Sendable (PostgresConnection) throws(PostgresFailure) -> T) async throws -> T {
        try await withConnection(what, retryingFor: options.retryWindow, body)
    }

    /// ``withConnection(_:_:)``, tried again while the database cannot be reached (a restart, a
    /// lost connection, a statement timeout, a full pool), for at most `window` seconds, waiting a
    /// little longer between tries each time; a refusal (a constraint, a permission) is not tried
    /// again. `body` must be safe to run again after a connection broke under it.
    func withConnection<T: Sendable>(_ what: String, retryingFor window: TimeInterval,
                                     _ body: @escaping @Sendable (PostgresConnection) throws(PostgresFailure) -> T) async throws -> T {
        try await prepare()
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, window) * 1_000_000_000)
        var pause: UInt64 = 50_000_000
        while true {
            switch await attempt(what, body) {
            case .success(let value):
                return value
            case .failure(let failure) where failure.isTransient && DispatchTime.now().uptimeNanoseconds + pause < deadline && !Task.isCancelled:
                try? await Task.sleep(nanoseconds: pause)
                pause = min(pause * 2, 1_000_000_000)
            case .failure(let failure):
                throw sessionError(failure, what)
            }
        }
    }

    /// Borrows a connection (connecting when none is idle and fewer than the maximum are open,
    /// waiting otherwise), runs `body` with it on a thread of its own, and gives it back: to the
    /// pool when still usable, else it is closed. When a connection of the pool turns out broken
    /// (the server restarted since it was last used), the pool's other idle connections are
    /// dropped with it and `body` runs once more on a fresh connection: `body` must be safe to
    /// run again after a connection broke under it.
    func withPooledConnection<T: Sendable>(_ what: String, _ body: @escaping @Sendable (PostgresConnection) throws(PostgresFailure) -> T) async throws -> T {
        try await attempt(what, body).mapError { sessionError($0, what) }.get()
    }

    /// ``withPooledConnection(_:_:)``'s work, its failure as libpq or the pool gave it.
    private func attempt<T: Sendable>(_ what: String, _ body: @escaping @Sendable (PostgresConnection) throws(PostgresFailure) -> T) async
        -> Result<T, PostgresFailure> {
        var retried = false
        while true {
            let connection: PostgresConnection, reused: Bool
            do throws(PostgresFailure) {
                (connection, reused) = try await borrowConnection(what)
            } catch {
                return .failure(error)
            }
            let result = await Self.perform(on: connection, body)
            giveBack(connection.isUsable ? connection : nil)
            if case .failure(let failure) = result, failure.kind == .lost {
                dropIdleConnections()
                if reused, !retried {
                    retried = true
                    continue
                }
            }
            return result
        }
    }

    /// A connection of the pool for the caller alone until it gives it back (``giveBack(_:)``),
    /// and whether it was open before (idle in the pool) rather than opened now.
    /// - Throws: the failure to open one, to find a free one in time, or the task's cancellation.
    func borrowConnection(_ what: String) async throws(PostgresFailure) -> (connection: PostgresConnection, reused: Bool) {
        if let idle = try await borrow() { return (idle, true) }
        let opened: Result<PostgresConnection, PostgresFailure> = await BlockingStoreWork.perform { [parameters, setup] in
            do throws(PostgresFailure) {
                return .success(try PostgresConnection.open(parameters, setup: setup))
            } catch {
                return .failure(error)
            }
        }
        switch opened {
        case .success(let connection):
            return (connection, false)
        case .failure(let failure):
            giveBack(nil)
            throw failure
        }
    }

    /// `failure` as the error of doing `what`, without the password, with a hint when the
    /// server's certificate could not be verified.
    func sessionError(_ failure: PostgresFailure, _ what: String) -> SessionError {
        var failure = failure
        failure.message = connectionString?.redact(failure.message) ?? failure.message
        if failure.kind == .refused, let hint = PostgresTransportSecurity.hint(for: failure.message) {
            failure.message += " (\(hint))"
        }
        return failure.sessionError(what)
    }

    /// Runs `body` with `connection` on a store thread (``SessionCore/BlockingStoreWork``): a
    /// blocking call never runs on the caller's thread.
    static func perform<T: Sendable>(on connection: PostgresConnection,
                                     _ body: @escaping @Sendable (PostgresConnection) throws(PostgresFailure) -> T) async -> Result<T, PostgresFailure> {
        await BlockingStoreWork.perform {
            do throws(PostgresFailure) {
                return .success(try body(connection))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Closes the idle connections: one was found broken, and the others were most likely broken
    /// by the same cause (a restarted server), so the next calls connect afresh.
    private func dropIdleConnections() {
        let dropped = pool.withLock { pool -> [PostgresConnection] in
            defer {
                pool.open -= pool.idle.count
                pool.idle.removeAll()
            }
            return pool.idle
        }
        // Closed here, outside the pool's lock: PQfinish may wait on the network.
        withExtendedLifetime(dropped) {}
    }

    /// An idle connection, or nil when the caller is to open one (its place is counted), waiting
    /// while the pool is full.
    /// - Throws: `busy` when none became free within ``Options/connectionWaitTimeout``;
    ///   `cancelled` when the task was.
    private func borrow() async throws(PostgresFailure) -> PostgresConnection? {
        enum Next { case take(PostgresConnection), open, wait }
        while true {
            let next: Next = pool.withLock { pool in
                if let connection = pool.idle.popLast() { return .take(connection) }
                if pool.open < options.maximumConnections {
                    pool.open += 1
                    return .open
                }
                return .wait
            }
            switch next {
            case .take(let connection): return connection
            case .open: return nil
            case .wait:
                switch await waitForConnection() {
                case .connection(let connection): return connection
                case .place: return nil
                case .freedMeanwhile: continue
                case .timedOut:
                    throw PostgresFailure(.busy, "all \(options.maximumConnections) connections of the pool stayed in use for "
                                          + "\(options.connectionWaitTimeout) s (PostgresDatabase.Options.connectionWaitTimeout)")
                case .cancelled:
                    throw PostgresFailure(.cancelled, "waiting for a database connection was cancelled")
                }
            }
        }
    }

    /// Waits until ``giveBack(_:)`` hands this call a connection or a place, the wait's deadline
    /// passes or the task is cancelled.
    private func waitForConnection() async -> Handoff {
        let id = pool.withLock { pool in
            pool.lastWaiter += 1
            return pool.lastWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let waiting: Bool = pool.withLock { pool in
                    // Given back meanwhile: look again rather than wait.
                    if !pool.idle.isEmpty || pool.open < options.maximumConnections { return false }
                    pool.waiters.append(Waiter(id: id, continuation: continuation))
                    return true
                }
                guard waiting else { return continuation.resume(returning: .freedMeanwhile) }
                // A cancellation that came before the waiter was listed found no one to stop.
                if Task.isCancelled { stopWaiting(id, because: .cancelled) }
                DispatchQueue.global().asyncAfter(deadline: .now() + options.connectionWaitTimeout) { [weak self] in
                    self?.stopWaiting(id, because: .timedOut)
                }
            }
        } onCancel: {
            stopWaiting(id, because: .cancelled)
        }
    }

    /// How many calls wait for a connection now.
    var waitingCalls: Int { pool.withLock { $0.waiters.count } }

    /// Ends waiter `id`'s wait with `outcome` (its deadline passed, or its task was cancelled)
    /// when it is still waiting.
    private func stopWaiting(_ id: Int, because outcome: Handoff) {
        let waiter = pool.withLock { pool -> Waiter? in
            guard let index = pool.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return pool.waiters.remove(at: index)
        }
        waiter?.continuation.resume(returning: outcome)
    }

    /// Returns a borrowed connection (nil: it was closed, or never opened) and hands the place to a waiter.
    func giveBack(_ connection: PostgresConnection?) {
        let waiter: Waiter? = pool.withLock { pool in
            if !pool.waiters.isEmpty {
                // The waiter gets the connection, or the place to open one.
                return pool.waiters.removeFirst()
            }
            if let connection { pool.idle.append(connection) } else { pool.open -= 1 }
            return nil
        }
        waiter?.continuation.resume(returning: connection.map(Handoff.connection) ?? .place)
    }

    /// Creates the tables, or checks them, now rather than at the first use; once per process
    /// (concurrent callers share the one attempt). Any number of nodes may do it at once.
    /// - Throws: `storageFailed` when the database cannot be reached, or when its schema is newer
    ///   than this version of SessionPostgres knows.
    public func prepare() async throws {
        if schemaVersion.value != nil { return }
        let version = try await schema.run { [seal] in
            try await self.withPooledConnection("prepare the database") { connection throws(PostgresFailure) in
                try PostgresSchema.migrate(connection, seal: seal)
            }
        }
        guard version <= PostgresSchema.version else {
            throw SessionError(.storageFailed, process: .configuration,
                               message: "the database's session schema is version \(version); this SessionPostgres knows version \(PostgresSchema.version) (a newer release migrated it)")
        }
        schemaVersion.value = version
    }
}
#endif
