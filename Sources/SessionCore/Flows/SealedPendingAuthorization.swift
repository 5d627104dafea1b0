import Foundation

/// A pending sign-in that leaves with the browser, sealed (``PendingAuthorizationPlace/sealed(_:finishedIn:)``).
enum SealedPendingAuthorization {
    /// `request`'s pending part sealed with `key` for `configuration`, valid until `expiresAt`.
    /// - Throws: `cryptoFailure`.
    static func keep(_ request: AuthorizationRequest, key: AuthorizationSealingKey, configuration: SessionConfiguration,
                     expiresAt: Date) throws -> SealedAuthorization {
        try SealedAuthorizationPayload(request, expiresAt: expiresAt).seal(with: key, for: configuration)
    }

    /// The request `sealed` holds and `callbackURL` as its response, once per provider object and,
    /// with `shared`, once across every server that notes finished sign-ins there.
    /// - Throws: `stateMismatch` when `sealed` was not sealed with `key` for this client, was
    ///   changed, has expired, was finished before, or does not belong to `callbackURL`; the
    ///   store's `storageFailed`; the response's errors.
    static func take(_ sealed: SealedAuthorization, key: AuthorizationSealingKey, callbackURL: URL, provider: OpenIDProvider,
                     finishedIn shared: PendingAuthorizationStore?) async throws -> (AuthorizationRequest, AuthorizationResponse) {
        guard let payload = try SealedAuthorizationPayload.open(sealed, with: key, for: provider.configuration) else {
            throw pendingRefused("the sealed sign-in cannot be opened with this key for this client, or was changed")
        }
        let now = provider.clock.now()
        guard now.timeIntervalSince1970 < payload.expiresAt else { throw pendingRefused("the sealed sign-in has expired") }
        let request = try payload.request()
        let response = try AuthorizationResponse(callbackURL: callbackURL, request: request)
        let digest = try PlatformCrypto.hexDigest(of: request.state, bytes: 16)
        let first = provider.finishedSealedAuthorizations.withLock { finished -> Bool in
            finished = finished.filter { $0.value > now }
            guard finished[digest] == nil else { return false }
            finished[digest] = Date(timeIntervalSince1970: payload.expiresAt)
            return true
        }
        guard first else { throw pendingRefused("the sealed sign-in was finished before") }
        if let shared, try await !shared.noteFinished(key: "sealed." + digest, expiresAt: Date(timeIntervalSince1970: payload.expiresAt)) {
            throw pendingRefused("the sealed sign-in was finished before, on another server")
        }
        return (request, response)
    }
}
