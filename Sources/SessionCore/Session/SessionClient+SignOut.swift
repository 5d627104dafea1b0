import Foundation

extension SessionClient {
    /// Ends the session: optionally revokes the refresh token (or, without one, the access
    /// token) at the provider (RFC 7009), then clears memory and the store. The stored session is
    /// the one revoked (a client that has not loaded it, a new process's logout command, revokes
    /// it too). On a ``SharedTokenStore`` it all happens under the store's lock, so a refresh in
    /// another process ends first and is revoked with the rest; the other processes find the
    /// session gone at their next call (``validTokens()``).
    ///
    /// When revocation fails, nothing local changes and the error is thrown, so the app can retry
    /// or sign out locally. While the revocation is on its way the store holds the session
    /// marked as such (``SessionTokens/inFlight``): an app that dies then finds no session. Once
    /// local clearing has begun, no refresh or sign-in started earlier can write tokens back. A
    /// pending authorization is forgotten.
    /// - Throws: with process `endSession`: `unsupportedProviderFeature` when revocation is asked
    ///   for but the provider has no revocation endpoint; transport or OAuth errors of the
    ///   revocation; `storageFailed` when the store cannot be cleared (memory is cleared anyway).
    public func signOut(revokeTokens: Bool = false) async throws {
        try await attributingErrors(to: .endSession) {
            // Let a refresh in flight here land first, so the token revoked is the newest one (and
            // this process's refresh, which takes the store's lock, is not waited for under it).
            if revokeTokens { await refreshFlight.wait() }
            // Under the store's lock (when it has one): a refresh in another process finishes (and
            // saves) first, so the newest refresh token is the one revoked, and none started earlier
            // writes tokens back.
            try await store.withRefreshLock { try await self.signOutNow(revokeTokens: revokeTokens) }
        }
    }

    private func signOutNow(revokeTokens: Bool) async throws {
        var revoked = false
        if revokeTokens {
            // The newest tokens are the store's (another process may have rotated them), or, for a
            // store that holds nothing or cannot be read, the ones in memory: an unreadable store
            // must not keep the user from signing out (clearing deletes it below).
            var session = try? await store.load()
            if session == nil { session = state.tokens }
            if let tokens = session {
                // Marked first: an app that dies after the provider revoked the tokens but
                // before the store is cleared must not find a session that looks usable.
                let epoch = state.epoch
                try await storeOnly(tokens.marked(.revocation), ifStill: epoch, process: .endSession)
                do {
                    try await TokenRevocation(provider: provider).revoke(tokens)
                    revoked = true
                } catch {
                    try? await storeOnly(tokens, ifStill: epoch, process: .endSession)
                    throw error
                }
            }
        }
        pending = nil
        try await endLocalSession(process: .endSession)
        log(.info, revokeTokens ? (revoked ? "signed out (tokens revoked)" : "signed out (there was no session to revoke)") : "signed out")
    }
}
