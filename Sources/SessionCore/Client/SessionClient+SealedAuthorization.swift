import Foundation

/// A sign-in any server can finish: the pending request leaves with the browser, sealed, instead
/// of staying in the memory of the server that began it.
extension SessionClient {
    /// Builds an authorization request as ``beginAuthorization(scopes:)`` does, and hands its
    /// pending part out sealed with `key` instead of keeping it here: any server whose client has
    /// the same configuration and key can finish it with
    /// ``completeAuthorization(callbackURL:pending:key:finishedIn:)``. Nothing pending is kept here, so this
    /// client's own ``beginAuthorization(scopes:)`` is not disturbed.
    /// - Parameters:
    ///   - scopes: as for ``beginAuthorization(scopes:)``.
    ///   - key: the app's sealing key, the same on every server.
    ///   - lifetime: how long the sign-in may take, in seconds (default ten minutes).
    /// - Returns: the request, whose `url` the browser is sent to, and the sealed value to give it
    ///   along (a cookie).
    /// - Throws: as ``beginAuthorization(scopes:)``; `invalidConfiguration` for a lifetime that is
    ///   not positive and finite; `cryptoFailure`.
    public func beginAuthorization(scopes: [String]? = nil, sealingWith key: AuthorizationSealingKey,
                                   lifetime: TimeInterval = 600) async throws -> (request: AuthorizationRequest, pending: SealedAuthorization) {
        guard lifetime.isFinite, lifetime > 0 else {
            throw SessionError(.invalidConfiguration, process: .authentication, message: "a sealed sign-in's lifetime must be a positive number of seconds")
        }
        do {
            let request = try await makeAuthorizationRequest(scopes: scopes, redirectURI: configuration.redirectURI, bindingCode: false)
            let sealed = try SealedAuthorizationPayload(request, expiresAt: clock.now().addingTimeInterval(lifetime)).seal(with: key, for: configuration)
            log(.info, "sealed authorization started: \(request)")
            return (request, sealed)
        } catch let error as SessionError {
            throw error.in(.authentication)
        }
    }

    /// Finishes a sign-in ``beginAuthorization(scopes:sealingWith:lifetime:)`` began, here or on
    /// another server: opens `pending` with `key`, checks `callbackURL` as its response, exchanges
    /// the code, validates the ID token and keeps the session, as
    /// ``completeAuthorization(callbackURL:)`` does.
    ///
    /// A sealed value is finished once per provider object (the servers' processes each have
    /// theirs). Across servers, give them a shared `finishedIn` store: the sign-in is noted there
    /// before its code is sent, so a reload of the callback that lands on another server sends
    /// nothing — a code sent twice makes the provider revoke what it gave for it, ending the
    /// session the first server just made.
    /// - Parameters:
    ///   - callbackURL: the URL the browser came back with, query included.
    ///   - pending: the sealed sign-in, from the browser's cookie.
    ///   - key: the app's sealing key, the same on every server.
    ///   - shared: a ``PendingAuthorizationStore`` the servers share (PostgreSQL's), where finished
    ///     sealed sign-ins are remembered until they expire; nil: this process only.
    /// - Throws: `stateMismatch` when `pending` was not sealed with `key` for this client, was
    ///   changed, has expired, was finished before, or does not belong to `callbackURL`; the
    ///   store's `storageFailed`; then as ``completeAuthorization(callbackURL:)``.
    public func completeAuthorization(callbackURL: URL, pending: SealedAuthorization, key: AuthorizationSealingKey,
                                      finishedIn shared: PendingAuthorizationStore? = nil) async throws -> SessionTokens {
        let epoch = state.epoch
        do {
            guard let payload = try SealedAuthorizationPayload.open(pending, with: key, for: configuration) else {
                throw Self.sealRefused("the sealed sign-in cannot be opened with this key for this client, or was changed")
            }
            let now = clock.now()
            guard now.timeIntervalSince1970 < payload.expiresAt else { throw Self.sealRefused("the sealed sign-in has expired") }
            let request = try payload.request()
            let response = try AuthorizationResponse(callbackURL: callbackURL, request: request)
            let digest = try PlatformCrypto.hexDigest(of: request.state, bytes: 16)
            let first = provider.finishedSealedAuthorizations.withLock { finished -> Bool in
                finished = finished.filter { $0.value > now }
                guard finished[digest] == nil else { return false }
                finished[digest] = Date(timeIntervalSince1970: payload.expiresAt)
                return true
            }
            guard first else { throw Self.sealRefused("the sealed sign-in was finished before") }
            if let shared, try await !shared.noteFinished(key: "sealed." + digest, expiresAt: Date(timeIntervalSince1970: payload.expiresAt)) {
                throw Self.sealRefused("the sealed sign-in was finished before, on another server")
            }
            return try await finishAuthorization(request, response, ifStill: epoch)
        } catch let error as SessionError {
            throw error.in(.authentication)
        }
    }

    private static func sealRefused(_ why: String) -> SessionError {
        SessionError(.stateMismatch, process: .authentication, message: "authorization response: \(why)")
    }
}
