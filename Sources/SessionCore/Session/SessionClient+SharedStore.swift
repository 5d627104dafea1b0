import Foundation

/// A store several processes share: what another process did to the stored session — a refresh,
/// a sign-out, another account's sign-in — is taken in here.
extension SessionClient {
    /// Under the refresh lock of a shared store: takes in what another process did to the stored
    /// session since this one read it. Rotated tokens are adopted (so they are not refreshed
    /// again when fresh); a session another process ended, or one whose refresh was interrupted by
    /// its holder's death (the in-flight mark is still there, though nobody holds the lock), ends
    /// here too, with `reauthenticationRequired`. Another account's session is left in the store.
    func catchUpWithStore() async throws {
        guard let tokens = state.tokens else { throw SessionError.noSession(.authentication) }
        let epoch = state.epoch
        let stored = try await store.load()
        guard state.holds(tokens) else { return }
        let ended: String
        switch StoredSessionChange(stored: stored, held: tokens) {
        case .none:
            return
        case .refreshed(let stored):
            adoptRefreshedElsewhere(stored)
            return
        case .otherAccount:
            throw endSessionHere("another process signed in to another account on this store; load the stored session or sign in again")
        case .marked(let stored):
            let (recovered, lostBecause) = try await recoverInterrupted(stored, ifStill: epoch)
            if let recovered, lostBecause == nil {
                if state.holds(tokens) { state.adopt(recovered, at: clock.now()) }
                return
            }
            ended = "a refresh by another process was interrupted, and its refresh token may be spent (\(lostBecause ?? "unknown"))"
        case .ended:
            ended = "another process ended the session"
        }
        try await endLocalSession(process: .authentication)
        let error = SessionError(.reauthenticationRequired, process: .authentication, message: "\(ended); sign in again")
        emit(.sessionLost(error))
        throw error
    }

    /// On a store several processes share, a session another process signed out of (its store is
    /// empty now), or replaced with another account's, ends here too rather than at the next
    /// refresh: a fresh access token would otherwise be used for the rest of its lifetime. A store
    /// that answers at once is looked at every call, and read only when its stamp changed; one across
    /// the network is read again as its ``TokenStore/changeDetection`` says.
    func endIfSignedOutElsewhere() async throws {
        guard store.isShared else { return }
        switch store.changeDetection {
        case .none: return
        case .stamp: try await compareStoredSessionStamp()
        case .reread(let interval): try await recheckStoredSession(every: interval)
        }
    }

    /// The stamp path: the store's stamp of its session, compared with the last one found to be
    /// this account's; the session is read only when it changed.
    private func compareStoredSessionStamp() async throws {
        guard let stamp = store.storedSessionStamp() else {
            throw endSessionHere("signed out elsewhere: another process ended the session")
        }
        guard stamp != state.seenStamp, let tokens = state.tokens else { return }
        // Stamped before reading: a save in between only makes the next call read again.
        // An unreadable session is left to the next refresh to report, as before.
        let stored = (try? await store.load()) ?? nil
        guard state.holds(tokens) else { return }
        if let stored, case .otherAccount = StoredSessionChange(stored: stored, held: tokens) {
            throw endSessionHere("another account signed in elsewhere: another process replaced the session")
        }
        state.saw(stamp)
    }

    /// Reads a store across the network again when `interval` has passed since it was last read
    /// here: a session gone from it, or another account's, ends here; one another process
    /// refreshed meanwhile is adopted (its access token replaced the one this client holds, which
    /// the provider may already have revoked). A store that cannot be read now leaves the session
    /// as it is: the next look, or the next refresh, says more.
    private func recheckStoredSession(every interval: TimeInterval) async throws {
        let now = clock.now()
        if let checked = state.checkedAt, now >= checked, now.timeIntervalSince(checked) < interval { return }
        guard let tokens = state.tokens else { return }
        let epoch = state.epoch
        state.checked(at: now)
        let stored: SessionTokens?
        do { stored = try await store.load() } catch { return }
        guard state.isStill(epoch), state.holds(tokens) else { return }
        switch StoredSessionChange(stored: stored, held: tokens) {
        case .none, .marked: return
        case .refreshed(let stored): adoptRefreshedElsewhere(stored)
        case .otherAccount: throw endSessionHere("another account signed in elsewhere: another process replaced the session")
        case .ended: throw endSessionHere("signed out elsewhere: another process ended the session")
        }
    }

    /// Makes `stored`, this account's tokens another process refreshed, the session's.
    private func adoptRefreshedElsewhere(_ stored: SessionTokens) {
        state.adopt(stored, at: clock.now())
        log(.info, "adopted the tokens another process refreshed")
        emit(.tokensRefreshed(stored))
    }

    /// Ends the session in memory only, because another process changed the shared store (which
    /// is left as it is), tells the event handler, and returns the error to throw.
    private func endSessionHere(_ why: String) -> SessionError {
        state.end()
        let error = SessionError(.reauthenticationRequired, process: .authentication, message: why)
        log(.info, "the session ended: \(why)")
        emit(.sessionLost(error))
        return error
    }
}
