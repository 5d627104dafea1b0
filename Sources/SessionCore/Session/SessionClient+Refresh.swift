import Foundation

extension SessionClient {
    /// Whether an access token that expires at `expiresAt` can be used without a refresh: it
    /// does not expire within the configuration's refresh leeway, by the client's clock. The
    /// test ``validTokens()`` applies before it refreshes.
    public nonisolated func isFresh(expiresAt: Date) -> Bool {
        !SessionTokens.expiry(expiresAt, isWithin: configuration.refreshLeeway, of: clock.now())
    }

    /// The current tokens, refreshed first when the access token expires within the configured
    /// leeway. Concurrent callers share one refresh.
    /// - Throws: `notAuthenticated` without a session; `reauthenticationRequired` when the
    ///   session can no longer be used (it is then cleared); refresh errors otherwise.
    public func validTokens() async throws -> SessionTokens {
        guard let tokens = state.tokens else {
            throw SessionError.noSession(.authentication)
        }
        let now = clock.now()
        guard tokens.expires(within: configuration.refreshLeeway, of: now) else {
            try await endIfSignedOutElsewhere()
            // Another process's refresh may have been adopted meanwhile.
            return state.tokens ?? tokens
        }
        if tokens.refreshToken == nil {
            guard tokens.expires(within: 0, of: now) else { return tokens }
            try await endLocalSession(process: .authentication)
            let error = SessionError(.reauthenticationRequired, process: .authentication,
                                     message: "the access token has expired and there is no refresh token")
            emit(.sessionLost(error))
            throw error
        }
        // Callers that saw the old tokens may reach the flight after it landed: only refresh
        // again if what is current by then still needs it.
        return try await refreshFlight.run { try await self.performRefresh(onlyIfExpiring: true) }
    }

    /// Refreshes the tokens now (RFC 6749 §6). Concurrent callers share one request; it is never
    /// retried. A rotated refresh token is saved before any caller gets the new tokens.
    ///
    /// - A refused refresh (an OAuth error such as `invalid_grant`) clears the session and throws
    ///   `reauthenticationRequired` carrying the provider's error.
    /// - When the request may have reached the provider but no valid answer came back (timeout,
    ///   broken connection, malformed body), the old refresh token may already be spent: the
    ///   session is cleared and `reauthenticationRequired` is thrown rather than replaying it.
    /// - A connection that could not be made, a 5xx answer, or a DPoP server's `use_dpop_nonce`
    ///   (also after the retry with its nonce: the request was not processed) keeps the session.
    /// - A failed save clears the session and throws `storageFailed`.
    /// - Before the request goes out, the store holds the session marked as refreshing
    ///   (``SessionTokens/inFlight``), so an app that dies before the answer is saved never sends
    ///   the possibly retired refresh token again (see ``loadStoredSession()``).
    public func refresh() async throws -> SessionTokens {
        try await refreshFlight.run { try await self.performRefresh(onlyIfExpiring: false) }
    }

    /// The refresh a server's refusal asks for (of `resource`'s token, when given), unless the tokens current after
    /// catching up with the store no longer hold the refused token: refreshing again would revoke what the others adopted.
    func refresh(unless replaced: @escaping @Sendable (SessionTokens) -> Bool, resource: String? = nil) async throws -> SessionTokens {
        try await refreshFlight.run(key: resource ?? "") { try await self.performRefresh(onlyIfExpiring: false, resource: resource, stillRefused: replaced) }
    }

    /// The refresh — of the session's access token, or for `resource` (RFC 8707) that resource's —
    /// under the store's cross-process lock when it has one (``SharedTokenStore``).
    func performRefresh(onlyIfExpiring: Bool, resource: String? = nil,
                        stillRefused: (@Sendable (SessionTokens) -> Bool)? = nil) async throws -> SessionTokens {
        guard store.isShared else { return try await refreshNow(onlyIfExpiring: onlyIfExpiring, resource: resource) }
        return try await store.withRefreshLock {
            try await self.catchUpWithStore()
            if let stillRefused, let current = await self.state.tokens, !stillRefused(current) { return current }
            return try await self.refreshNow(onlyIfExpiring: onlyIfExpiring, resource: resource)
        }
    }

    private func refreshNow(onlyIfExpiring: Bool, resource: String?) async throws -> SessionTokens {
        guard let tokens = state.tokens else {
            throw SessionError.noSession(.authentication)
        }
        let now = clock.now()
        let expiring = resource.map { tokens.resourceTokens[$0]?.expires(within: configuration.refreshLeeway, of: now) ?? true }
        if onlyIfExpiring, !(expiring ?? tokens.expires(within: configuration.refreshLeeway, of: now)) { return tokens }
        guard let refreshToken = tokens.refreshToken else {
            throw SessionError(.reauthenticationRequired, process: .authentication, message: "the session has no refresh token")
        }
        let epoch = state.epoch
        // The key is read while `tokens` are still the current session's: after the discovery's
        // await, a new sign-in may have replaced them, and a failure would end that one instead.
        let key = try await dpopKeyOrEnd(tokens)
        let metadata = try await discover()
        let grant = RefreshTokenGrant(provider: provider)
        let request = try grant.request(spending: refreshToken, for: resource.map { [$0] } ?? tokens.resources, metadata: metadata)
        // Durably marked first: if the app dies before the answer is saved, the next launch
        // knows this refresh token may be spent and does not send it again.
        try await storeOnly(tokens.marked(.refresh, at: clock.now()), ifStill: epoch, process: .authentication)
        let response: HTTPResponse
        switch try await provider.attemptProved(request, key: key, purpose: "refresh") {
        case .success(let received):
            response = received
        case .failure(let failure) where !failure.mayHaveReachedServer || failure.kind == .cancelled:
            try? await storeOnly(tokens, ifStill: epoch, process: .authentication)
            throw ProviderExchange.sessionError(failure, process: .authentication, purpose: "refresh")
        case .failure(let failure):
            throw try await abandonSession(after: ProviderExchange.sessionError(failure, process: .authentication, purpose: "refresh"),
                                           ifStill: epoch)
        }
        guard state.isStill(epoch) else {
            throw SessionError(.sessionEnded, process: .authentication, message: "the session ended during the refresh")
        }
        if RefreshTokenGrant.leftUnspent(response) {
            // The session stays and the next call tries again.
            try? await storeOnly(tokens, ifStill: epoch, process: .authentication)
            throw ProviderExchange.statusError(response, process: .authentication, purpose: "refresh")
        }
        let refreshed: SessionTokens
        do {
            refreshed = try await grant.refreshed(tokens, by: response, provedWith: key, metadata: metadata, for: resource)
        } catch let error as SessionError where error.code == .invalidTarget {
            // RFC 8707 §2: the server refused the resource, not the refresh token, which stays unspent.
            try? await storeOnly(tokens, ifStill: epoch, process: .authentication)
            throw error
        } catch let error as SessionError {
            throw try await abandonSession(after: error, ifStill: epoch)
        }
        try await adopt(refreshed, ifStill: epoch)
        emit(.tokensRefreshed(refreshed))
        log(.info, "refresh completed (refresh token \(Exact.equal(refreshed.refreshToken, refreshToken) ? "kept" : "rotated"))")
        return refreshed
    }

    /// Clears the session after a refresh that was refused or whose outcome is unknown, and
    /// returns the `reauthenticationRequired` error to throw (keeping the provider's strings).
    private func abandonSession(after cause: SessionError, ifStill expected: SessionState.Epoch) async throws -> SessionError {
        let wasCurrent = state.isStill(expected)
        if wasCurrent { try await endLocalSession(process: .authentication) }
        log(.warning, "refresh failed (\(cause.code.rawValue)); the session was cleared")
        var error = cause
        error.code = .reauthenticationRequired
        error.message = "refresh failed (\(cause.code.rawValue): \(cause.message)); sign in again"
        if wasCurrent { emit(.sessionLost(error)) }
        return error
    }
}
