import Foundation

/// A pending sign-in kept in a store the servers share, bound to the browser that began it
/// (``PendingAuthorizationPlace/store(_:)``): its record is sealed under a fresh
/// ``BrowserBinding`` the browser carries, and taken out only by a callback that brings it.
enum StoredPendingAuthorization {
    /// Keeps `request`'s pending part in `store` until `expiresAt`, under a digest of its `state`,
    /// and returns the binding for the browser.
    /// - Throws: `cryptoFailure`; the store's `storageFailed`.
    static func keep(_ request: AuthorizationRequest, in store: PendingAuthorizationStore, configuration: SessionConfiguration,
                     expiresAt: Date) async throws -> BrowserBinding {
        let binding = try BrowserBinding.generate()
        let key = try pendingKey(request.state)
        let record = StoredAuthorizationRecord(binding: String(decoding: SealedAuthorizationPayload.binding(configuration), as: UTF8.self),
                                               payload: SealedAuthorizationPayload(request, expiresAt: expiresAt))
        let sealed = try SealedBox.seal(try JSONEncoder().encode(record), key: try bindingKey(binding),
                                        associatedData: associatedData(configuration, key: key))
        try await store.keep(sealed, key: key, expiresAt: expiresAt)
        return binding
    }

    /// The request kept for `callbackURL`'s `state`, opened with `binding` and only then taken out
    /// of `store` (once, across every server), and the callback as its response. A callback
    /// without the right binding takes nothing: the sign-in stays for the browser that began it.
    /// - Throws: `stateMismatch` for no single `state`, a missing or wrong binding, no record (never
    ///   kept, finished, expired) or one of another client; the store's errors; the response's.
    static func take(for callbackURL: URL, binding: BrowserBinding?, from store: PendingAuthorizationStore, configuration: SessionConfiguration,
                     now: Date) async throws -> (AuthorizationRequest, AuthorizationResponse) {
        let states = (URLComponents(url: callbackURL, resolvingAgainstBaseURL: false)?.queryItems ?? []).filter { Exact.equal($0.name, "state") }
        guard states.count == 1, let state = states.first?.value, !state.isEmpty else {
            throw pendingRefused("the callback carries no single state")
        }
        guard let binding else {
            throw pendingRefused("the browser sent no binding for this sign-in (its cookie is missing); the sign-in is left for the browser that began it")
        }
        let key = try pendingKey(state)
        let opener = PendingRecordOpener(key: try bindingKey(binding), associatedData: associatedData(configuration, key: key),
                                         configurationBinding: String(decoding: SealedAuthorizationPayload.binding(configuration), as: UTF8.self),
                                         now: now)
        guard let sealed = try await store.take(key: key, checking: { _ = try opener.open($0) }) else {
            throw pendingRefused("no pending sign-in has this state (it is unknown, was finished before, or expired)")
        }
        let request = try opener.open(sealed).request()
        return (request, try AuthorizationResponse(callbackURL: callbackURL, request: request))
    }

    /// The key a pending sign-in is kept under: a digest of its `state`.
    static func pendingKey(_ state: String) throws -> String {
        try PlatformCrypto.hexDigest(of: state, bytes: 16)
    }

    /// What a kept record's seal authenticates besides the record: the client, its redirect URI,
    /// and the key it is kept under (a record moved to another key does not open).
    private static func associatedData(_ configuration: SessionConfiguration, key: String) -> Data {
        Data("SessionService pending authorization v2\n".utf8) + SealedAuthorizationPayload.binding(configuration) + Data("\n\(key)".utf8)
    }

    /// The binding's bytes, the key its sign-in's record is sealed with.
    private static func bindingKey(_ binding: BrowserBinding) throws -> Data {
        guard let key = binding.key else {
            throw pendingRefused("the browser's binding is not one this package made; the sign-in is left for the browser that began it")
        }
        return key
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
            throw pendingRefused("the pending sign-in was begun by another browser (the binding does not open it); it is left for that browser")
        }
        guard Exact.equal(record.binding, configurationBinding) else {
            throw pendingRefused("the pending sign-in belongs to another client or redirect URI")
        }
        guard now.timeIntervalSince1970 < record.payload.expiresAt else { throw pendingRefused("the pending sign-in has expired") }
        return record.payload
    }
}
