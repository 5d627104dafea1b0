import Foundation
import LegacySessionReaders
import SessionCore

/// Carrying over the session a legacy SDK left, so that switching SDKs signs nobody out.
extension SessionService {
    /// Tells the service where a legacy SDK kept its session. The next successful `initialize`
    /// that finds no session in the service's own store reads it from `source`; when it belongs to
    /// the configured issuer and client, it is saved in the store as the session (its access token
    /// taken as expired, so it is refreshed at once, as a restored session is), and only then is
    /// the legacy copy removed. Listeners hear it as a restored session (C5).
    ///
    /// A legacy session that cannot be read, or belongs to another provider or client, is left
    /// where it is and a warning logged; `initialize` goes on as if there were none. nil (the
    /// default) carries nothing over. The Compat modules set their SDK's source themselves.
    public func carryOverLegacySession(from source: (any LegacySessionSource)?) {
        state.withLock { $0.legacySessionSource = source }
    }

    /// Adopts `source`'s session into `client`, which has none: the outcome to announce (C5).
    func adoptLegacySession(from source: any LegacySessionSource, into client: SessionClient) async -> Result<SessionTokens?, SessionError> {
        let legacy: LegacySession
        do {
            guard let found = try source.legacySession() else { return .success(nil) }
            legacy = found
        } catch {
            log(.warning, "\(source.name) holds a session that cannot be read; it is left alone: \(Self.sessionError(error, process: .configuration).message)")
            return .success(nil)
        }
        if let mismatch = legacy.mismatch(with: client.configuration) {
            log(.warning, "\(source.name) holds a session that is not adopted, because \(mismatch); it is left alone")
            return .success(nil)
        }
        do {
            try await client.setTokens(legacy.tokens)
        } catch {
            return .failure(Self.sessionError(error, process: .authentication))
        }
        do {
            try source.removeLegacySession()
            log(.info, "the session in \(source.name) was carried over, and removed there")
        } catch {
            log(.warning, "the session in \(source.name) was carried over, but could not be removed there")
        }
        do {
            return .success(try await client.validTokens())
        } catch {
            return .failure(Self.sessionError(error, process: .authentication))
        }
    }
}
