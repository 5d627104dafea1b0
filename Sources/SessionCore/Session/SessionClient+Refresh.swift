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

    /// The refresh a server's refusal of the tokens asks for: `isRefused` says whether a token set
    /// still holds the refused token. Tokens another process rotated meanwhile (adopted under the
    /// store's lock) are returned without a request: refreshing again would make the provider revoke
    /// the access token every other process just adopted, and each of them would refuse in turn.
    func refresh(unless replaced: @escaping @Sendable (SessionTokens) -> Bool) async throws -> SessionTokens {
        try await refreshFlight.run { try await self.performRefresh(onlyIfExpiring: false, stillRefused: replaced) }
    }

    /// The refresh, under the store's cross-process lock when it has one (``SharedTokenStore``).
    /// With `stillRefused`, the tokens current after the catch-up are returned as they are when
    /// they no longer hold the refused token.
    private func performRefresh(onlyIfExpiring: Bool, stillRefused: (@Sendable (SessionTokens) -> Bool)? = nil) async throws -> SessionTokens {
        guard store.isShared else { return try await refreshNow(onlyIfExpiring: onlyIfExpiring) }
        return try await store.withRefreshLock {
            try await self.catchUpWithStore()
            if let stillRefused, let current = await self.state.tokens, !stillRefused(current) { return current }
            return try await self.refreshNow(onlyIfExpiring: onlyIfExpiring)
        }
    }

    /// Under the refresh lock of a shared store: takes in what another process did to the stored
    /// session since this one read it. Rotated tokens are adopted (so they are not refreshed
    /// again when fresh); a session another process ended, or one whose refresh was interrupted by
    /// its holder's death (the in-flight mark is still there, though nobody holds the lock), ends
    /// here too, with `reauthenticationRequired`.
    private func catchUpWithStore() async throws {
        guard let tokens = state.tokens else { throw SessionError.noSession(.authentication) }
        let epoch = state.epoch
        let stored = try await store.load()
        guard let now = state.tokens, Self.sameTokens(now, tokens) else { return }
        let ended: String
        switch stored {
        case let stored? where stored.inFlight != nil:
            let (recovered, lostBecause) = try await recoverInterrupted(stored, ifStill: epoch)
            if let recovered, lostBecause == nil, Self.sameAccount(recovered, tokens) {
                guard let now = state.tokens, Self.sameTokens(now, tokens) else { return }
                state.adopt(recovered, at: clock.now())
                return
            }
            ended = "a refresh by another process was interrupted, and its refresh token may be spent (\(lostBecause ?? "another account's"))"
        case let stored? where !Self.sameTokens(stored, tokens):
            // Another process's tokens are adopted only when they are this account's: after a
            // logout and a login as someone else there, this session is over, not renewed.
            guard Self.sameAccount(stored, tokens) else {
                throw endSessionHere("another process signed in to another account on this store; load the stored session or sign in again")
            }
            state.adopt(stored, at: clock.now())
            log(.info, "adopted the tokens another process refreshed")
            emit(.tokensRefreshed(stored))
            return
        case .some:
            return
        case nil:
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
    private func endIfSignedOutElsewhere() async throws {
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
        let stored = try? await store.load()
        guard let still = state.tokens, Self.sameTokens(still, tokens) else { return }
        if let stored = stored ?? nil, !Self.sameAccount(stored, tokens) {
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
        do {
            stored = try await store.load()
        } catch {
            return
        }
        guard state.isStill(epoch), let still = state.tokens, Self.sameTokens(still, tokens) else { return }
        guard let stored else { throw endSessionHere("signed out elsewhere: another process ended the session") }
        guard Self.sameAccount(stored, tokens) else {
            throw endSessionHere("another account signed in elsewhere: another process replaced the session")
        }
        if stored.inFlight == nil, !Self.sameTokens(stored, tokens) {
            state.adopt(stored, at: clock.now())
            log(.info, "adopted the tokens another process refreshed")
            emit(.tokensRefreshed(stored))
        }
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

    /// True when `a` and `b` hold the same access and refresh token, byte for byte.
    static func sameTokens(_ a: SessionTokens, _ b: SessionTokens) -> Bool {
        Exact.equal(a.accessToken, b.accessToken) && Exact.equal(a.refreshToken, b.refreshToken)
    }

    /// True when `a` and `b` are one account's sessions: the same subject, byte for byte (a store
    /// belongs to one issuer and client), or no subject on either side to tell them apart by.
    static func sameAccount(_ a: SessionTokens, _ b: SessionTokens) -> Bool {
        guard let first = a.subject, let second = b.subject else { return a.subject == nil && b.subject == nil }
        return Exact.equal(first, second)
    }

    private func refreshNow(onlyIfExpiring: Bool) async throws -> SessionTokens {
        guard let tokens = state.tokens else {
            throw SessionError.noSession(.authentication)
        }
        if onlyIfExpiring, !tokens.expires(within: configuration.refreshLeeway, of: clock.now()) {
            return tokens
        }
        guard let refreshToken = tokens.refreshToken else {
            throw SessionError(.reauthenticationRequired, process: .authentication, message: "the session has no refresh token")
        }
        let epoch = state.epoch
        // The key is read while `tokens` are still the current session's: after the discovery's
        // await, a new sign-in may have replaced them, and a failure would end that one instead.
        let key = try await dpopKeyOrEnd(tokens)
        let metadata = try await discover()
        let request = try provider.clientRequest(metadata.tokenEndpoint, [
            ("grant_type", "refresh_token"),
            ("refresh_token", refreshToken),
        ] + configuration.sortedTokenRequestParameters, metadata: metadata, process: .authentication)
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
        if response.status >= 500 || OpenIDProvider.asksForDPoPNonce(response) {
            // The provider failed visibly, or asked again for a DPoP nonce (the request was not
            // processed, RFC 9449 §8; a fleet of provider nodes with nonces of their own does it):
            // the refresh token was not spent, so the session stays and the next call tries again.
            try? await storeOnly(tokens, ifStill: epoch, process: .authentication)
            throw ProviderExchange.statusError(response, process: .authentication, purpose: "refresh")
        }
        let refreshed: SessionTokens
        do {
            let tokenResponse = try TokenResponse(response: response, purpose: "refresh")
            var subject = tokens.subject
            if let idToken = tokenResponse.idToken {
                subject = try await provider.validateIDToken(idToken, nonce: nil, subject: tokens.subject, metadata: metadata).subject
            }
            let binding = try provider.binding(of: tokenResponse, provedWith: key, purpose: "refresh")
            refreshed = tokenResponse.sessionTokens(receivedAt: clock.now(), requestedScopes: tokens.scopes, subject: subject, previous: tokens)
                .bound(to: binding)
        } catch let error as SessionError {
            throw try await abandonSession(after: error, ifStill: epoch)
        }
        try await adopt(refreshed, ifStill: epoch)
        emit(.tokensRefreshed(refreshed))
        log(.info, "refresh completed (refresh token \(refreshed.refreshToken == refreshToken ? "kept" : "rotated"))")
        return refreshed
    }

    /// Clears the session after a refresh that was refused or whose outcome is unknown, and
    /// returns the `reauthenticationRequired` error to throw (keeping the provider's strings).
    private func abandonSession(after cause: SessionError, ifStill expected: SessionState.Epoch) async throws -> SessionError {
        let wasCurrent = state.isStill(expected)
        if wasCurrent {
            try await endLocalSession(process: .authentication)
        }
        log(.warning, "refresh failed (\(cause.code.rawValue)); the session was cleared")
        var error = cause
        error.code = .reauthenticationRequired
        error.message = "refresh failed (\(cause.code.rawValue): \(cause.message)); sign in again"
        if wasCurrent { emit(.sessionLost(error)) }
        return error
    }
}
