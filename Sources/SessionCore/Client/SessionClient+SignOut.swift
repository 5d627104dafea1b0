import Foundation

extension SessionClient {
    /// Ends the session: optionally revokes the refresh token (or, without one, the access
    /// token) at the provider (RFC 7009), then clears memory and the store. A client that has not
    /// loaded the stored session (a new process's logout command) revokes the stored one.
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
        try await within(.endSession) {
            var revoked = false
            if revokeTokens {
                // Let a refresh in flight land first, so the token revoked is the newest one.
                await refreshFlight.wait()
                // The session to end may be only in the store: a fresh process signing out.
                var session = current
                if session == nil { session = try await store.load() }
                if let tokens = session {
                    // Marked first: an app that dies after the provider revoked the tokens but
                    // before the store is cleared must not find a session that looks usable.
                    let startGeneration = generation
                    try await storeOnly(tokens.marked(.revocation), ifGeneration: startGeneration, process: .endSession)
                    do {
                        try await revoke(tokens)
                        revoked = true
                    } catch {
                        try? await storeOnly(tokens, ifGeneration: startGeneration, process: .endSession)
                        throw error
                    }
                }
            }
            pending = nil
            try await endLocalSession(process: .endSession)
            log(.info, revokeTokens ? (revoked ? "signed out (tokens revoked)" : "signed out (there was no session to revoke)") : "signed out")
        }
    }

    private func revoke(_ tokens: SessionTokens) async throws {
        guard let endpoint = try await revocationEndpoint() else {
            throw SessionError(.unsupportedProviderFeature, process: .endSession, message: "the provider has no revocation endpoint")
        }
        let (token, hint) = tokens.refreshToken.map { ($0, "refresh_token") } ?? (tokens.accessToken, "access_token")
        let request = try clientRequest(endpoint, [("token", token), ("token_type_hint", hint)], metadata: try await discover(), process: .endSession)
        let response = try await exchange.send(request, process: .endSession, purpose: "revocation")
        guard response.status == 200 else { throw ProviderExchange.statusError(response, process: .endSession, purpose: "revocation") }
    }
}
