#if canImport(CLibPQ)
import Dispatch
import Foundation
import SessionCore

/// A session's refresh lease across the fleet: a row in `session_service_leases` naming its
/// holder (a random token) and when it runs out, by the database's clock.
///
/// Why a row: only a role with write rights on that table can take a lease or keep one from
/// being taken. An advisory lock, which this replaced, can be taken by any role that can connect
/// (its key is a hash anyone can compute): such a role could stop a session's refreshes for as long
/// as it liked, or exhaust a node's pool. A row also holds no connection: the lease is taken in one
/// statement, waiting for it holds no connection and no thread, and it works through a pooler in
/// transaction mode (PgBouncer), where session-level locks do not.
///
/// A holder renews its lease every third of ``PostgresDatabase/Options/leaseBound``; one that
/// died or froze leaves it to the next node within the bound. Times are the database's, so the
/// nodes' clocks need not agree. While the lease is held, the store's writes of that session land
/// only if the version is still the one read under the lease and no other node holds a live
/// lease on it: a holder whose lease ran out while it was frozen cannot overwrite what the next
/// holder wrote.
final class PostgresLease: Sendable {
    /// The lease the current task holds, if any.
    @TaskLocal static var current: PostgresLease?

    let key: PostgresSessionKey
    let database: PostgresDatabase
    /// Names this holder in the lease's row.
    let holder: String
    /// The session's version as read under the lease: nil before a read, `.some(nil)` when the
    /// row was not there.
    let seen = Locked<Int64??>(nil)
    private let renewal = Locked<Task<Void, Never>?>(nil)

    private init(key: PostgresSessionKey, database: PostgresDatabase, holder: String) {
        self.key = key
        self.database = database
        self.holder = holder
    }

    /// Takes the lease of `key`, trying until `timeout` passes or the task is cancelled; between
    /// tries it waits a little longer each time, up to 50 ms, holding no connection.
    /// - Throws: `storageFailed` when the database cannot be reached or the lease stayed held;
    ///   `cancelled` when the task was.
    static func acquire(_ key: PostgresSessionKey, in database: PostgresDatabase, timeout: TimeInterval = 60) async throws -> PostgresLease {
        let lease = PostgresLease(key: key, database: database, holder: try PlatformCrypto.hexDigest(of: UUID().uuidString, bytes: 16))
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, timeout) * 1_000_000_000)
        var pause: UInt64 = 1_000_000
        while true {
            if try await lease.take() { break }
            if Task.isCancelled {
                throw SessionError(.cancelled, process: .authentication, message: "waiting for the refresh lease was cancelled")
            }
            guard DispatchTime.now().uptimeNanoseconds < deadline else {
                throw SessionError(.storageFailed, process: .authentication,
                                   message: "the refresh lease of this session is held by another node and was not released within \(wholeSeconds(timeout)) s")
            }
            try? await Task.sleep(nanoseconds: pause)
            pause = min(pause * 2, 50_000_000)
        }
        lease.startRenewal(every: database.options.leaseBound / 3)
        return lease
    }

    /// One try: the row is written for this holder when there is none, or when the one there ran
    /// out (or is this holder's own, should a try be run twice after a lost connection).
    private func take() async throws -> Bool {
        let (key, holder, bound) = (key, holder, Int(database.options.leaseBound * 1000))
        return try await database.withConnection("take the refresh lease") { connection throws(PostgresFailure) in
            try !connection.execute("""
                INSERT INTO session_service_leases AS lease (issuer, client_id, account, holder, expires_at)
                VALUES ($1, $2, $3, $4, now() + $5 * interval '1 millisecond')
                ON CONFLICT (issuer, client_id, account) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
                WHERE lease.expires_at < now() OR lease.holder = EXCLUDED.holder
                RETURNING 1
                """, key.parameters + [holder, "\(bound)"]).rows.isEmpty
        }
    }

    /// Renews the lease while it is held, every `interval`.
    private func startRenewal(every interval: TimeInterval) {
        let (key, holder, bound) = (key, holder, Int(database.options.leaseBound * 1000))
        renewal.value = Task { [database] in
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
                guard !Task.isCancelled else { return }
                _ = try? await database.withConnection("renew the refresh lease") { connection throws(PostgresFailure) in
                    try connection.execute("""
                        UPDATE session_service_leases SET expires_at = now() + $5 * interval '1 millisecond'
                        WHERE issuer = $1 AND client_id = $2 AND account = $3 AND holder = $4
                        """, key.parameters + [holder, "\(bound)"])
                }
            }
        }
    }

    /// Releases the lease: its row is deleted if it is still this holder's. One that cannot be
    /// deleted now (the database is away) runs out within the bound.
    func release() async {
        renewal.withLock { $0?.cancel() }
        let (key, holder) = (key, holder)
        _ = try? await database.withConnection("release the refresh lease") { connection throws(PostgresFailure) in
            try connection.execute("DELETE FROM session_service_leases WHERE issuer = $1 AND client_id = $2 AND account = $3 AND holder = $4",
                                   key.parameters + [holder])
        }
    }

    /// The condition under which a write of the session lands while this lease is held: no other
    /// node holds a live lease on it (`$n` is this holder's parameter).
    static func noOtherHolder(parameter n: Int) -> String {
        """
        NOT EXISTS (SELECT 1 FROM session_service_leases other WHERE other.issuer = $1 AND other.client_id = $2
            AND other.account = $3 AND other.holder <> $\(n) AND other.expires_at > now())
        """
    }
}
#endif
