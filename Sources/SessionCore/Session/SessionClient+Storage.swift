import Foundation

/// The session in the token store: restored, replaced, persisted in order, ended.
extension SessionClient {
    /// Loads the stored session into memory and returns it as stored, possibly expired, without
    /// a request; nil when nothing is stored. ``restoreUsableSession()`` also refreshes it when
    /// due, as an app does at launch; ``validTokens()`` refreshes it at the first use.
    ///
    /// A session stored while a refresh or a revocation was on its way
    /// (``SessionTokens/inFlight``) is not restored: the app stopped before the answer, so the
    /// refresh token may already be retired or revoked, and sending it again could make the
    /// provider revoke the whole grant. It is removed from the store and nil is returned, and the
    /// event handler hears ``SessionEvent/sessionLost(_:)`` with `reauthenticationRequired`: the
    /// session was lost, which is not the same as none having been stored.
    /// - Throws: `storageFailed` or `storageCorrupt` (process `configuration`). A store that
    ///   holds something unreadable (`storageCorrupt`) keeps it, for inspection, until
    ///   ``discardStoredSession()`` deletes it; every restore until then fails the same way.
    public func loadStoredSession() async throws -> SessionTokens? {
        let epoch = state.epoch
        var stored: SessionTokens?
        do {
            stored = try await store.load()
        } catch let error as SessionError where error.code == .storageCorrupt {
            var error = error
            error.message += " (it is kept for inspection; discardStoredSession() deletes it, then sign in again)"
            throw error
        }
        guard state.isStill(epoch) else { return nil }
        var lostBecause: String?
        if stored?.inFlight != nil {
            // Another process may be refreshing right now: its mark means "interrupted" only once
            // its lock is free and the mark is still there. Then the provider may still say the
            // refresh token was never spent.
            if store.isShared {
                (stored, lostBecause) = try await store.withRefreshLock {
                    try await self.recoverInterrupted(try await self.store.load(), ifStill: epoch)
                }
            } else {
                (stored, lostBecause) = try await recoverInterrupted(stored, ifStill: epoch)
            }
            guard state.isStill(epoch) else { return nil }
        }
        if let interrupted = stored?.inFlight {
            log(.warning, "the stored session was waiting for a \(interrupted.rawValue) answer that never came; it is not used")
            try await endLocalSession(process: .configuration)
            stored = nil
            // Lost, not absent: the app hears why its user must sign in again.
            emit(.sessionLost(SessionError(.reauthenticationRequired, process: .authentication,
                                           message: "a \(interrupted.rawValue) was interrupted before its answer was saved (the app stopped), "
                                               + "and its refresh token may be spent (\(lostBecause ?? "unknown")); sign in again")))
        }
        state.adopt(stored, at: clock.now())
        if stored != nil { log(.info, "session restored from the store") }
        return stored
    }

    /// The former name of ``loadStoredSession()``, which says what it does beside
    /// ``restoreUsableSession()``.
    @available(*, deprecated, renamed: "loadStoredSession()")
    public func restoreSession() async throws -> SessionTokens? {
        try await loadStoredSession()
    }

    /// Restores the stored session ready for use, as an app does at launch: loads it, then
    /// refreshes it when the access token expires within the leeway (C8's rule).
    /// - Returns: the session's tokens, or nil when nothing is stored.
    /// - Throws: the errors of ``loadStoredSession()``; a refresh's errors (``validTokens()``), of
    ///   which a refused refresh clears the store and is `reauthenticationRequired`.
    public func restoreUsableSession() async throws -> SessionTokens? {
        guard try await loadStoredSession() != nil else { return nil }
        return try await validTokens()
    }

    /// Deletes what the store holds, readable or not, and ends the session in memory, without a
    /// word to the provider: the way out of `storageCorrupt`, and a local sign-out. A pending
    /// authorization is forgotten too. (``signOut(revokeTokens:)`` with `false` does the same.)
    /// - Throws: `storageFailed` (process `configuration`) when the store cannot be cleared;
    ///   memory is cleared anyway.
    public func discardStoredSession() async throws {
        pending = nil
        try await endLocalSession(process: .configuration)
        log(.info, "the stored session was discarded")
    }

    /// Replaces the session's tokens in memory and in the store, e.g. to simulate an expired
    /// access token or to adopt tokens obtained elsewhere.
    public func setTokens(_ tokens: SessionTokens) async throws {
        try await adopt(tokens, ifStill: state.epoch)
    }

    /// Stores `tokens` without making them current, unless the session has ended since
    /// `expected`: the marked copy saved before a refresh or revocation goes out, or the
    /// unmarked one put back when it came to nothing.
    /// - Throws: `sessionEnded`; `storageFailed` when the store cannot save.
    func storeOnly(_ tokens: SessionTokens, ifStill expected: SessionState.Epoch, process: SessionError.Process) async throws {
        try await exclusively {
            guard state.isStill(expected) else {
                throw SessionError(.sessionEnded, process: process, message: "the session ended meanwhile")
            }
            do {
                try await store.save(tokens)
            } catch {
                throw SessionError(.storageFailed, process: process, message: "the session could not be saved: \(StoreErrorText.of(error))")
            }
        }
    }

    /// The one way tokens become the session's — a sign-in flow's, a refresh's, the app's own:
    /// saves `tokens` and makes them current, unless the session has ended since `expected`. A
    /// failed save ends the session: the tokens that could not be saved are dropped, so an old
    /// refresh token is never replayed.
    func adopt(_ tokens: SessionTokens, ifStill expected: SessionState.Epoch) async throws {
        events.noteLifetime(of: tokens, leeway: configuration.refreshLeeway, log: log)
        try await exclusively {
            guard state.isStill(expected) else {
                throw SessionError(.sessionEnded, process: .authentication, message: "the session ended while tokens were being obtained")
            }
            do {
                try await store.save(tokens)
            } catch {
                let hadSession = state.tokens != nil
                state.end()
                log(.error, "the token store failed to save; a fresh sign-in is required")
                do {
                    try await store.clear()
                } catch let clearing {
                    // The store keeps what it held before (the previous session, whose refresh
                    // token may already be spent); a later launch restores it and its first
                    // refresh fails, which ends it there.
                    log(.error, "the token store could not be cleared either (\(StoreErrorText.of(clearing))); it still holds the session from before")
                }
                let failure = SessionError(.storageFailed, process: .authentication,
                                           message: "the new tokens could not be saved, sign in again: \(StoreErrorText.of(error))")
                if hadSession { emit(.sessionLost(failure)) }
                throw failure
            }
            state.adopt(tokens, at: clock.now())
        }
    }

    /// Ends the session locally: memory first (so nothing started earlier can write back), then
    /// the store.
    func endLocalSession(process: SessionError.Process) async throws {
        state.end()
        do {
            try await exclusively { try await store.clear() }
        } catch {
            throw SessionError(.storageFailed, process: process,
                               message: "the stored session could not be deleted: \(StoreErrorText.of(error))")
        }
    }

    /// Runs `body` while no other store write runs; waiters are served in arrival order.
    func exclusively<T>(_ body: () async throws -> T) async throws -> T {
        if !storeTurns.enter() {
            await withCheckedContinuation { storeTurns.wait($0) }
        }
        defer { storeTurns.leave() }
        return try await body()
    }

    /// `stored` as the session to restore: a session whose refresh was interrupted is given back
    /// unmarked (and saved so) when its refresh token outlived it (``InterruptedRefresh``);
    /// otherwise as it is, with why it is lost. Run under the store's refresh lock when it has one.
    /// - Throws: `sessionEnded` when this client's session ended since `expected` (a sign-out while
    ///   the provider was asked): nothing is written back; `storageFailed`.
    func recoverInterrupted(_ stored: SessionTokens?, ifStill expected: SessionState.Epoch) async throws -> (tokens: SessionTokens?, lostBecause: String?) {
        guard let stored, stored.inFlight != nil else { return (stored, nil) }
        switch await InterruptedRefresh.resolve(stored, at: provider) {
        case .unspent(let unmarked):
            try await storeOnly(unmarked, ifStill: expected, process: .authentication)
            log(.info, "a refresh interrupted elsewhere left its refresh token unspent: the session goes on")
            return (unmarked, nil)
        case .lost(let why):
            return (stored, why)
        }
    }
}
