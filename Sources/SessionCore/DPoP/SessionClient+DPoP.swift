import Foundation

/// DPoP (RFC 9449) in the session: the key its tokens are bound to, read once and kept while they
/// are current. Proofs, nonces and the binding of a token response are the provider's
/// (`OpenIDProvider+DPoP.swift`), so the flows that make a session use them too.
extension SessionClient {
    /// The key `tokens` are bound to; nil for Bearer tokens.
    /// - Throws: `reauthenticationRequired` when the key is unreadable, or the tokens are DPoP
    ///   tokens without one: they are never sent unbound.
    func dpopKey(of tokens: SessionTokens) throws -> DPoPKey? {
        if let material = tokens.dpopKeyMaterial {
            if let loaded = state.loadedDPoPKey, loaded.material == material { return loaded }
            let key = try DPoPKey(material: material)
            state.keep(key)
            return key
        }
        if let type = tokens.tokenType, ASCII.equalIgnoringCase(type, "DPoP") {
            throw SessionError(.reauthenticationRequired, process: .authentication,
                               message: "the session's tokens are DPoP-bound but its key is missing; sign in again")
        }
        return nil
    }

    /// The key of `tokens`, the current session's; when it cannot be used the session is ended
    /// (store included: its tokens could only be sent unbound) and the error thrown.
    func dpopKeyOrEnd(_ tokens: SessionTokens) async throws -> DPoPKey? {
        do {
            return try dpopKey(of: tokens)
        } catch let error as SessionError {
            try await endLocalSession(process: .authentication)
            log(.warning, "the session ended: \(error.message)")
            emit(.sessionLost(error))
            throw error
        }
    }
}
