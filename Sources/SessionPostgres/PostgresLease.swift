#if canImport(CLibPQ)
import Dispatch
import Foundation
import SessionCore

/// A session's refresh lease across the fleet: a PostgreSQL session-level advisory lock on a key
/// of the session, held on a connection of its own for as long as the refresh runs.
///
/// Why an advisory lock rather than a lease row: the server drops it with its connection, so a
/// node killed mid-refresh frees it at once (the kernel closes its socket), and one that froze or
/// lost the network frees it within ``PostgresDatabase/Options/leaseBound``: the connection is
/// set to `idle_session_timeout` = that bound, and the holder renews it (a statement on the
/// connection) every third of it while the refresh runs. A lease row would need a clock shared by
/// the nodes and a sweeper; this needs neither.
///
/// While it is held, the store's reads and writes of that session go over the lease's connection
/// (so a node holding leases never waits for a pool connection), and a write compares the
/// session's version with the one read under the lease: a lease that ran out while its holder was
/// frozen cannot overwrite what the next holder wrote.
///
/// `@unchecked Sendable`: the connection is used only on `queue`, a serial queue; the version is
/// behind `seen`'s lock.
final class PostgresLease: @unchecked Sendable {
    /// The lease the current task holds, if any.
    @TaskLocal static var current: PostgresLease?

    let key: PostgresSessionKey
    let database: PostgresDatabase
    private let connection: PostgresConnection
    private let queue = DispatchQueue(label: "SessionPostgres.lease")
    /// Set once, before the lease is handed out; cancelled by its holder at release.
    private var renewal: Task<Void, Never>?
    /// The session's version as read under the lease: nil before a read, `.some(nil)` when the
    /// row was not there.
    let seen = Locked<Int64??>(nil)

    private init(key: PostgresSessionKey, database: PostgresDatabase, connection: PostgresConnection) {
        self.key = key
        self.database = database
        self.connection = connection
    }

    /// Takes the lease of `key`, trying until `timeout` passes or the task is cancelled; between
    /// tries it waits a little longer each time, up to 50 ms. No thread waits meanwhile.
    /// - Throws: `storageFailed` when the database cannot be reached or the lease stayed held;
    ///   `cancelled` when the task was.
    static func acquire(_ key: PostgresSessionKey, in database: PostgresDatabase, timeout: TimeInterval = 60) async throws -> PostgresLease {
        let connection = try await database.borrowConnection("take the refresh lease")
        let lease = PostgresLease(key: key, database: database, connection: connection)
        let bound = Int(database.options.leaseBound * 1000)
        do {
            _ = try await lease.run("take the refresh lease") { connection throws(PostgresFailure) in
                try connection.execute("SET idle_session_timeout = \(bound)")
            }
            let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, timeout) * 1_000_000_000)
            var pause: UInt64 = 1_000_000
            while true {
                let taken = try await lease.run("take the refresh lease") { connection throws(PostgresFailure) in
                    try connection.execute("SELECT pg_try_advisory_lock(hashtextextended($1, 0))", [key.lockName]).rows.first?.first == "t"
                }
                if taken { break }
                if Task.isCancelled {
                    throw SessionError(.cancelled, process: .authentication, message: "waiting for the refresh lease was cancelled")
                }
                guard DispatchTime.now().uptimeNanoseconds < deadline else {
                    throw SessionError(.storageFailed, process: .authentication,
                                       message: "the refresh lease of this session is held by another node and was not released within \(Int(timeout)) s")
                }
                try? await Task.sleep(nanoseconds: pause)
                pause = min(pause * 2, 50_000_000)
            }
        } catch {
            database.giveBack(nil)
            throw error
        }
        lease.startRenewal(every: database.options.leaseBound / 3)
        return lease
    }

    /// Runs `body` on the lease's connection.
    /// - Throws: `storageFailed` saying what was being done and why.
    func run<T: Sendable>(_ what: String, _ body: @escaping @Sendable (PostgresConnection) throws(PostgresFailure) -> T) async throws -> T {
        try await PostgresDatabase.perform(on: connection, queue: queue, body).mapError { database.sessionError($0, what) }.get()
    }

    /// Renews the lease while it is held: a statement every `interval`, which keeps the server's
    /// idle timer from ending the connection.
    private func startRenewal(every interval: TimeInterval) {
        renewal = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
                guard !Task.isCancelled, let self else { return }
                _ = try? await self.run("renew the refresh lease") { connection throws(PostgresFailure) in try connection.execute("SELECT 1") }
            }
        }
    }

    /// Releases the lease and gives the connection back; one that cannot be unlocked is closed,
    /// which releases it too.
    func release() async {
        renewal?.cancel()
        let key = self.key
        let unlocked = (try? await run("release the refresh lease") { connection throws(PostgresFailure) in
            _ = try connection.execute("SELECT pg_advisory_unlock(hashtextextended($1, 0))", [key.lockName])
            _ = try connection.execute("SET idle_session_timeout = 0")
            return true
        }) ?? false
        database.giveBack(unlocked && connection.isUsable ? connection : nil)
    }
}
#endif
