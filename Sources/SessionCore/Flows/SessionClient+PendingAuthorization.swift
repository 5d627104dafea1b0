import Foundation

/// A sign-in in two steps, its pending part kept where the app chooses
/// (``PendingAuthorizationPlace``): in this client, sealed in the browser's cookie, or in a store
/// the servers share. One begin/complete pair for all three; the former calls named after each
/// place forward to it, deprecated.
extension SessionClient {
    /// Builds an authorization request (as ``beginAuthorization(scopes:)`` does) and keeps its
    /// pending part in `place`: here (the request becomes this client's pending one), sealed into
    /// the cookie the result carries, or in a shared store under a digest of its `state`, bound to
    /// the browser by the cookie the result carries. Any server whose client has the same
    /// configuration (and key, or store) finishes a sealed or stored sign-in with
    /// ``completeAuthorization(callbackURL:keptIn:cookie:)``; neither disturbs this client's own
    /// pending request.
    /// - Parameters:
    ///   - scopes: as for ``beginAuthorization(scopes:)``.
    ///   - place: where the pending part waits for the callback.
    ///   - lifetime: how long a sealed or stored sign-in may take, in seconds (default ten minutes).
    /// - Returns: the request, whose `url` the browser is sent to, and the cookie it carries back.
    /// - Throws: as ``beginAuthorization(scopes:)``; `invalidConfiguration` for a lifetime that is
    ///   not positive and finite; `cryptoFailure`; the store's `storageFailed`.
    public func beginAuthorization(scopes: [String]? = nil, keepingIn place: PendingAuthorizationPlace,
                                   lifetime: TimeInterval = 600) async throws -> BegunAuthorization {
        guard lifetime.isFinite, lifetime > 0 else {
            throw SessionError(.invalidConfiguration, process: .authentication, message: "a pending sign-in's lifetime must be a positive number of seconds")
        }
        do {
            let expiresAt = clock.now().addingTimeInterval(lifetime)
            let begun: BegunAuthorization
            switch place {
            case .here:
                return BegunAuthorization(request: try await beginAuthorization(scopes: scopes), cookie: nil)
            case .sealed(let key, _):
                let request = try await makeAuthorizationRequest(scopes: scopes, redirectURI: configuration.redirectURI, bindingCode: false)
                begun = BegunAuthorization(request: request, cookie: try SealedPendingAuthorization.keep(request, key: key, configuration: configuration,
                                                                                                        expiresAt: expiresAt).value)
            case .store(let store):
                let request = try await makeAuthorizationRequest(scopes: scopes, redirectURI: configuration.redirectURI, bindingCode: false)
                begun = BegunAuthorization(request: request, cookie: try await StoredPendingAuthorization.keep(request, in: store, configuration: configuration,
                                                                                                              expiresAt: expiresAt).value)
            }
            log(.info, "authorization started, its pending part kept with the browser's cookie: \(begun.request)")
            return begun
        } catch let error as SessionError {
            throw error.in(.authentication)
        }
    }

    /// Finishes a sign-in begun with ``beginAuthorization(scopes:keepingIn:lifetime:)``, here or on
    /// another server: takes its pending part back from `place` (with `cookie`, as the callback's
    /// browser sent it back), checks `callbackURL` as its response, exchanges the code, validates
    /// the ID token and adopts the session, as ``completeAuthorization(callbackURL:)`` does.
    ///
    /// A sealed or stored sign-in is finished once, for the browser that began it: a callback
    /// without its cookie, or with another one, finishes nothing and, for a stored one, consumes
    /// nothing — it stays for the browser that began it (no login CSRF).
    /// - Parameters:
    ///   - callbackURL: the URL the browser came back with, query included.
    ///   - place: where the sign-in was kept.
    ///   - cookie: the result's ``BegunAuthorization/cookie``, as the browser sent it back; nil
    ///     when it sent none (and for ``PendingAuthorizationPlace/here``).
    /// - Throws: `stateMismatch` when nothing pending matches (unknown, finished before, expired,
    ///   another client's, another browser's, changed); the store's `storageFailed`; then as
    ///   ``completeAuthorization(callbackURL:)``.
    public func completeAuthorization(callbackURL: URL, keptIn place: PendingAuthorizationPlace, cookie: String?) async throws -> SessionTokens {
        let epoch = state.epoch
        do {
            let request: AuthorizationRequest, response: AuthorizationResponse
            switch place {
            case .here:
                return try await completeAuthorization(callbackURL: callbackURL)
            case .sealed(let key, let shared):
                guard let cookie else { throw pendingRefused("the browser sent no sealed sign-in (its cookie is missing)") }
                (request, response) = try await SealedPendingAuthorization.take(SealedAuthorization(value: cookie), key: key, callbackURL: callbackURL,
                                                                                provider: provider, finishedIn: shared)
            case .store(let store):
                (request, response) = try await StoredPendingAuthorization.take(for: callbackURL, binding: cookie.map(BrowserBinding.init(value:)),
                                                                                from: store, configuration: configuration, now: clock.now())
            }
            return try await finishAuthorization(request, response, ifStill: epoch)
        } catch let error as SessionError {
            throw error.in(.authentication)
        }
    }

    /// ``beginAuthorization(scopes:keepingIn:lifetime:)`` with the pending part sealed with `key`:
    /// the sealed value to give the browser along (a cookie).
    @available(*, deprecated, message: "use beginAuthorization(scopes:keepingIn: .sealed(key), lifetime:); its cookie is the sealed value")
    public func beginAuthorization(scopes: [String]? = nil, sealingWith key: AuthorizationSealingKey,
                                   lifetime: TimeInterval = 600) async throws -> (request: AuthorizationRequest, pending: SealedAuthorization) {
        let begun = try await beginAuthorization(scopes: scopes, keepingIn: .sealed(key), lifetime: lifetime)
        return (begun.request, SealedAuthorization(value: begun.cookie ?? ""))
    }

    /// ``completeAuthorization(callbackURL:keptIn:cookie:)`` of a sign-in sealed with `key`,
    /// finished sign-ins noted in `shared` (nil: in this process only).
    @available(*, deprecated, message: "use completeAuthorization(callbackURL:keptIn: .sealed(key, finishedIn: shared), cookie: pending.value)")
    public func completeAuthorization(callbackURL: URL, pending: SealedAuthorization, key: AuthorizationSealingKey,
                                      finishedIn shared: PendingAuthorizationStore? = nil) async throws -> SessionTokens {
        try await completeAuthorization(callbackURL: callbackURL, keptIn: .sealed(key, finishedIn: shared), cookie: pending.value)
    }

    /// ``beginAuthorization(scopes:keepingIn:lifetime:)`` with the pending part in `store`: the
    /// binding to set as the browser's cookie.
    @available(*, deprecated, message: "use beginAuthorization(scopes:keepingIn: .store(store), lifetime:); its cookie is the binding")
    public func beginAuthorization(scopes: [String]? = nil, keepingPendingIn store: PendingAuthorizationStore,
                                   lifetime: TimeInterval = 600) async throws -> (request: AuthorizationRequest, binding: BrowserBinding) {
        let begun = try await beginAuthorization(scopes: scopes, keepingIn: .store(store), lifetime: lifetime)
        return (begun.request, BrowserBinding(value: begun.cookie ?? ""))
    }

    /// ``completeAuthorization(callbackURL:keptIn:cookie:)`` of a sign-in kept in `store`, for
    /// the browser whose cookie held `binding`.
    @available(*, deprecated, message: "use completeAuthorization(callbackURL:keptIn: .store(store), cookie: binding?.value)")
    public func completeAuthorization(callbackURL: URL, pendingIn store: PendingAuthorizationStore,
                                      binding: BrowserBinding?) async throws -> SessionTokens {
        try await completeAuthorization(callbackURL: callbackURL, keptIn: .store(store), cookie: binding?.value)
    }

    /// Unavailable: a sign-in kept in a store is finished only for the browser that began it.
    @available(*, unavailable, message: "use completeAuthorization(callbackURL:keptIn: .store(store), cookie:) with the cookie the callback's browser sent back")
    public func completeAuthorization(callbackURL: URL, pendingIn store: PendingAuthorizationStore) async throws -> SessionTokens {
        try await completeAuthorization(callbackURL: callbackURL, keptIn: .store(store), cookie: nil)
    }
}
