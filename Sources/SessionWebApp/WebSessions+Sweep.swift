import Foundation
import SessionCore

extension WebSessions {
    /// Deletes expired sessions (idle past ``WebSessionOptions/idleTimeout`` or older than
    /// ``WebSessionOptions/absoluteTimeout``), revoking their grants when
    /// ``WebSessionOptions/revokesExpiredSessions``. Run it now and then (a timer, a cron job):
    /// requests delete the expired sessions they meet, but nobody meets an abandoned one.
    /// - Parameter limit: how many to delete at most in this call.
    /// - Returns: how many were deleted, and how many revocations failed.
    /// - Throws: the store's `storageFailed`.
    public func sweep(limit: Int = 10_000) async throws -> (deleted: Int, revocationsFailed: Int) {
        let now = clock.now()
        let removed = try await store.removeExpired(idleBefore: now.addingTimeInterval(-options.idleTimeout),
                                                    createdBefore: now.addingTimeInterval(-options.absoluteTimeout), limit: limit)
        var failed = 0
        for session in removed {
            clients[session.record.id] = nil
            guard options.revokesExpiredSessions, let tokens = session.tokens else { continue }
            if case .failure = await revoke(tokens) { failed += 1 }
        }
        if !removed.isEmpty { provider.log(.info, "the sweep deleted \(removed.count) expired web session(s)") }
        return (removed.count, failed)
    }
}
