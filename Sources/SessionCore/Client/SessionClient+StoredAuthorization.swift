import Foundation

/// A sign-in any server can finish, its pending part kept on the servers' side: in a
/// ``PendingAuthorizationStore`` they share, rather than sealed in the browser's cookie. It is
/// bound to the browser that began it by a ``BrowserBinding``.
extension SessionClient {
    /// Builds an authorization request as ``beginAuthorization(scopes:)`` does, and keeps its
    /// pending part in `store`, under a digest of its `state` and sealed under a fresh
    /// ``BrowserBinding``, instead of here: any server whose client has the same configuration and
    /// store finishes it with ``completeAuthorization(callbackURL:pendingIn:binding:)``, given the
    /// binding back from the same browser. This client's own ``beginAuthorization(scopes:)`` is not
    /// disturbed.
    /// - Parameters:
    ///   - scopes: as for ``beginAuthorization(scopes:)``.
    ///   - store: where the servers keep their pending sign-ins.
    ///   - lifetime: how long the sign-in may take, in seconds (default ten minutes).
    /// - Returns: the request, whose `url` the browser is sent to, and the binding to set as a
    ///   cookie on that browser (see ``BrowserBinding`` for the cookie's attributes).
    /// - Throws: as ``beginAuthorization(scopes:)``; `invalidConfiguration` for a lifetime that is
    ///   not positive and finite; the store's `storageFailed`.
    public func beginAuthorization(scopes: [String]? = nil, keepingPendingIn store: PendingAuthorizationStore,
                                   lifetime: TimeInterval = 600) async throws -> (request: AuthorizationRequest, binding: BrowserBinding) {
        guard lifetime.isFinite, lifetime > 0 else {
            throw SessionError(.invalidConfiguration, process: .authentication, message: "a pending sign-in's lifetime must be a positive number of seconds")
        }
        do {
            let request = try await makeAuthorizationRequest(scopes: scopes, redirectURI: configuration.redirectURI, bindingCode: false)
            let expiresAt = clock.now().addingTimeInterval(lifetime)
            let binding = try BrowserBinding.generate()
            let key = try Self.pendingKey(request.state)
            let record = StoredAuthorizationRecord(binding: String(decoding: SealedAuthorizationPayload.binding(configuration), as: UTF8.self),
                                                   payload: SealedAuthorizationPayload(request, expiresAt: expiresAt))
            let sealed = try SealedBox.seal(try JSONEncoder().encode(record), key: try Self.bindingKey(binding),
                                            associatedData: Self.pendingAssociatedData(configuration, key: key))
            try await store.keep(sealed, key: key, expiresAt: expiresAt)
            log(.info, "authorization started, its pending part kept in the shared store: \(request)")
            return (request, binding)
        } catch let error as SessionError {
            throw error.in(.authentication)
        }
    }

    /// Finishes a sign-in ``beginAuthorization(scopes:keepingPendingIn:lifetime:)`` began, here or
    /// on another server, for the browser that began it: opens its pending part in `store` with
    /// `binding` (from that browser's cookie) and only then takes it out (so it is finished once,
    /// across every server), checks `callbackURL` as its response, exchanges the code and keeps the
    /// session, as ``completeAuthorization(callbackURL:)`` does.
    ///
    /// A callback brought by a browser without the binding, or with another one, finishes nothing
    /// and consumes nothing: the pending sign-in stays for the browser that began it.
    /// - Parameters:
    ///   - callbackURL: the URL the browser came back with, query included.
    ///   - store: where the servers keep their pending sign-ins.
    ///   - binding: the binding `begin` returned, as the callback's browser sent it back; nil when
    ///     it sent none.
    /// - Throws: `stateMismatch` when the callback's `state` names no pending sign-in in `store`
    ///   (unknown, finished before, or expired), when `binding` is missing or is not the one the
    ///   sign-in was begun with, or when it is one of another client or redirect URI; then as
    ///   ``completeAuthorization(callbackURL:)``.
    public func completeAuthorization(callbackURL: URL, pendingIn store: PendingAuthorizationStore,
                                      binding: BrowserBinding?) async throws -> SessionTokens {
        let epoch = state.epoch
        do {
            let states = (URLComponents(url: callbackURL, resolvingAgainstBaseURL: false)?.queryItems ?? []).filter { Exact.equal($0.name, "state") }
            guard states.count == 1, let state = states.first?.value, !state.isEmpty else {
                throw Self.pendingRefused("the callback carries no single state")
            }
            guard let binding else {
                throw Self.pendingRefused("the browser sent no binding for this sign-in (its cookie is missing); the sign-in is left for the browser that began it")
            }
            let key = try Self.pendingKey(state)
            let opener = PendingRecordOpener(key: try Self.bindingKey(binding), associatedData: Self.pendingAssociatedData(configuration, key: key),
                                             configurationBinding: String(decoding: SealedAuthorizationPayload.binding(configuration), as: UTF8.self),
                                             now: clock.now())
            guard let sealed = try await store.take(key: key, checking: { _ = try opener.open($0) }) else {
                throw Self.pendingRefused("no pending sign-in has this state (it is unknown, was finished before, or expired)")
            }
            let request = try opener.open(sealed).request()
            let response = try AuthorizationResponse(callbackURL: callbackURL, request: request)
            return try await finishAuthorization(request, response, ifStill: epoch)
        } catch let error as SessionError {
            throw error.in(.authentication)
        }
    }

    /// Unavailable: a sign-in kept in a store is finished only for the browser that began it.
    @available(*, unavailable, renamed: "completeAuthorization(callbackURL:pendingIn:binding:)",
               message: "pass the BrowserBinding beginAuthorization(keepingPendingIn:) returned, as the callback's browser sent it back")
    public func completeAuthorization(callbackURL: URL, pendingIn store: PendingAuthorizationStore) async throws -> SessionTokens {
        try await completeAuthorization(callbackURL: callbackURL, pendingIn: store, binding: nil)
    }

    /// The key a pending sign-in is kept under: a digest of its `state`.
    static func pendingKey(_ state: String) throws -> String {
        try PlatformCrypto.hexDigest(of: state, bytes: 16)
    }

    /// What a kept record's seal authenticates besides the record: the client, its redirect URI,
    /// and the key it is kept under (a record moved to another key does not open).
    private static func pendingAssociatedData(_ configuration: SessionConfiguration, key: String) -> Data {
        Data("SessionService pending authorization v2\n".utf8) + SealedAuthorizationPayload.binding(configuration) + Data("\n\(key)".utf8)
    }

    /// The binding's bytes, the key its sign-in's record is sealed with.
    private static func bindingKey(_ binding: BrowserBinding) throws -> Data {
        guard let key = binding.key else {
            throw pendingRefused("the browser's binding is not one this package made; the sign-in is left for the browser that began it")
        }
        return key
    }

    static func pendingRefused(_ why: String) -> SessionError {
        SessionError(.stateMismatch, process: .authentication, message: "authorization response: \(why)")
    }
}

/// What a ``PendingAuthorizationStore`` keeps of a sign-in, sealed under its browser's binding:
/// the request's pending part and the client and redirect URI it was made for.
struct StoredAuthorizationRecord: Codable {
    var binding: String
    var payload: SealedAuthorizationPayload
}

/// Opens a kept record for one callback: with the browser's binding, for this client, before its expiry.
private struct PendingRecordOpener: Sendable {
    let key: Data
    let associatedData: Data
    let configurationBinding: String
    let now: Date

    /// The record's payload.
    /// - Throws: `stateMismatch` when the record does not open with this binding (another
    ///   browser's sign-in, or a record changed or moved), belongs to another client, or expired.
    func open(_ sealed: Data) throws -> SealedAuthorizationPayload {
        guard let plaintext = try SealedBox.open(sealed, key: key, associatedData: associatedData),
              let record = try? JSONDecoder().decode(StoredAuthorizationRecord.self, from: plaintext) else {
            throw SessionClient.pendingRefused("the pending sign-in was begun by another browser (the binding does not open it); it is left for that browser")
        }
        guard Exact.equal(record.binding, configurationBinding) else {
            throw SessionClient.pendingRefused("the pending sign-in belongs to another client or redirect URI")
        }
        guard now.timeIntervalSince1970 < record.payload.expiresAt else { throw SessionClient.pendingRefused("the pending sign-in has expired") }
        return record.payload
    }
}
