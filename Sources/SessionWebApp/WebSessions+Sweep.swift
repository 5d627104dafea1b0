import Foundation
import SessionCore

extension WebSessions {
    /// Deletes expired sessions (idle past ``WebSessionOptions/idleTimeout`` or older than
    /// ``WebSessionOptions/absoluteTimeout``), revoking their grants when
    /// ``WebSessionOptions/revokesExpiredSessions``. Run it now and then (a timer, a cron job):
    /// requests delete the expired sessions they meet, but nobody meets an abandoned one. It also
    /// lets go of the clients this instance holds for sessions unused here for the idle timeout
    /// (ended elsewhere, or served elsewhere since).
    /// - Parameter limit: how many to delete at most in this call.
    /// - Returns: how many were deleted, and how many revocations failed.
    /// - Throws: the store's `storageFailed`.
    public func sweep(limit: Int = 10_000) async throws -> (deleted: Int, revocationsFailed: Int) {
        let now = clock.now()
        let removed = try await store.removeExpired(idleBefore: now.addingTimeInterval(-options.idleTimeout),
                                                    createdBefore: now.addingTimeInterval(-options.absoluteTimeout), limit: limit)
        clients.prune(unusedSince: now.addingTimeInterval(-options.idleTimeout))
        var failed = 0
        for session in removed {
            clients.remove(session.record.id)
            guard options.revokesExpiredSessions, let tokens = session.tokens else { continue }
            if case .failure = await revoke(tokens) { failed += 1 }
        }
        if !removed.isEmpty { provider.log(.info, "the sweep deleted \(removed.count) expired web session(s)") }
        return (removed.count, failed)
    }
}
