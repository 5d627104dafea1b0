import Foundation

/// A sign-in any server can finish, its pending part kept on the servers' side: in a
/// ``PendingAuthorizationStore`` they share, rather than sealed in the browser's cookie.
extension SessionClient {
    /// Builds an authorization request as ``beginAuthorization(scopes:)`` does, and keeps its
    /// pending part in `store`, under a digest of its `state`, instead of here: any server whose
    /// client has the same configuration and store finishes it with
    /// ``completeAuthorization(callbackURL:pendingIn:)``. This client's own
    /// ``beginAuthorization(scopes:)`` is not disturbed.
    /// - Parameters:
    ///   - scopes: as for ``beginAuthorization(scopes:)``.
    ///   - store: where the servers keep their pending sign-ins.
    ///   - lifetime: how long the sign-in may take, in seconds (default ten minutes).
    /// - Throws: as ``beginAuthorization(scopes:)``; `invalidConfiguration` for a lifetime that is
    ///   not positive and finite; the store's `storageFailed`.
    public func beginAuthorization(scopes: [String]? = nil, keepingPendingIn store: PendingAuthorizationStore,
                                   lifetime: TimeInterval = 600) async throws -> AuthorizationRequest {
        guard lifetime.isFinite, lifetime > 0 else {
            throw SessionError(.invalidConfiguration, process: .authentication, message: "a pending sign-in's lifetime must be a positive number of seconds")
        }
        do {
            let request = try await makeAuthorizationRequest(scopes: scopes, redirectURI: configuration.redirectURI, bindingCode: false)
            let expiresAt = clock.now().addingTimeInterval(lifetime)
            let record = StoredAuthorizationRecord(binding: String(decoding: SealedAuthorizationPayload.binding(configuration), as: UTF8.self),
                                                   payload: SealedAuthorizationPayload(request, expiresAt: expiresAt))
            try await store.keep(try JSONEncoder().encode(record), key: try PlatformCrypto.hexDigest(of: request.state, bytes: 16), expiresAt: expiresAt)
            log(.info, "authorization started, its pending part kept in the shared store: \(request)")
            return request
        } catch let error as SessionError {
            throw error.in(.authentication)
        }
    }

    /// Finishes a sign-in ``beginAuthorization(scopes:keepingPendingIn:lifetime:)`` began, here or
    /// on another server: takes its pending part out of `store` by the callback's `state` (so it is
    /// finished once, across every server), checks `callbackURL` as its response, exchanges the
    /// code and keeps the session, as ``completeAuthorization(callbackURL:)`` does.
    /// - Throws: `stateMismatch` when the callback's `state` names no pending sign-in in `store`
    ///   (unknown, finished before, or expired) or one of another client or redirect URI; then as
    ///   ``completeAuthorization(callbackURL:)``.
    public func completeAuthorization(callbackURL: URL, pendingIn store: PendingAuthorizationStore) async throws -> SessionTokens {
        let startGeneration = generation
        do {
            let states = (URLComponents(url: callbackURL, resolvingAgainstBaseURL: false)?.queryItems ?? []).filter { Exact.equal($0.name, "state") }
            guard states.count == 1, let state = states.first?.value, !state.isEmpty else {
                throw Self.pendingRefused("the callback carries no single state")
            }
            guard let data = try await store.take(key: try PlatformCrypto.hexDigest(of: state, bytes: 16)) else {
                throw Self.pendingRefused("no pending sign-in has this state (it is unknown, was finished before, or expired)")
            }
            guard let record = try? JSONDecoder().decode(StoredAuthorizationRecord.self, from: data),
                  Exact.equal(record.binding, String(decoding: SealedAuthorizationPayload.binding(configuration), as: UTF8.self)) else {
                throw Self.pendingRefused("the pending sign-in belongs to another client or redirect URI")
            }
            guard clock.now().timeIntervalSince1970 < record.payload.expiresAt else { throw Self.pendingRefused("the pending sign-in has expired") }
            let request = try record.payload.request()
            let response = try AuthorizationResponse(callbackURL: callbackURL, request: request)
            return try await finishAuthorization(request, response, ifGeneration: startGeneration)
        } catch let error as SessionError {
            throw error.in(.authentication)
        }
    }

    private static func pendingRefused(_ why: String) -> SessionError {
        SessionError(.stateMismatch, process: .authentication, message: "authorization response: \(why)")
    }
}

/// What a ``PendingAuthorizationStore`` keeps of a sign-in: the request's pending part and the
/// client and redirect URI it was made for.
struct StoredAuthorizationRecord: Codable {
    var binding: String
    var payload: SealedAuthorizationPayload
}
