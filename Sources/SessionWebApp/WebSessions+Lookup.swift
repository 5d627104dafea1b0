import Foundation
import SessionCore

/// Finding a request's session: by its cookie, alive, its idle lifetime started again.
extension WebSessions {
    /// The session `request`'s cookie names, when it is alive; nil when there is none — no cookie,
    /// a malformed one, a session ended or expired (which is then deleted).
    /// - Throws: the store's `storageFailed`.
    public func session(for request: WebRequest) async throws -> WebSession? {
        guard let identifier = request.cookie(named: options.sessionCookieName),
              let id = WebSessionID(identifier: identifier) else { return nil }
        return try await session(id, identifier: identifier)
    }

    /// The session `id`, whose cookie holds `identifier`, when it is alive.
    func session(_ id: WebSessionID, identifier: String) async throws -> WebSession? {
        guard let record = try await store.record(id) else {
            clients.remove(id)
            return nil
        }
        let now = clock.now()
        if record.hasExpired(at: now, idle: options.idleTimeout, absolute: options.absoluteTimeout) {
            _ = try await end(id, revoking: options.revokesExpiredSessions)
            return nil
        }
        if now.timeIntervalSince(record.lastUsedAt) >= options.touchInterval {
            try await store.touch(id, at: now)
        }
        guard let client = try await client(of: id) else { return nil }
        return WebSession(id: id, subject: record.subject, providerSessionID: record.providerSessionID, createdAt: record.createdAt,
                          csrfToken: WebSession.csrfToken(for: identifier), client: client)
    }

    /// The client holding `id`'s tokens: the one this instance made before, or a new one on the
    /// session's token store; nil when the session has no tokens left.
    private func client(of id: WebSessionID) async throws -> SessionClient? {
        if let client = clients.use(id, at: clock.now()) { return client }
        let client = SessionClient(provider: provider, store: store.tokenStore(for: id))
        guard try await client.loadStoredSession() != nil else { return nil }
        // Another request may have made one meanwhile: the first one made stays the only one.
        let now = clock.now()
        if let made = clients.use(id, at: now) { return made }
        clients.keep(client, for: id, at: now, idleTimeout: options.idleTimeout)
        return client
    }
}
