import SessionCore

/// `endSession`: the session ended here, and optionally at the provider too. It jumps the queue (C7).
extension SessionService {
    /// Ends the session, optionally revoking the tokens first. It jumps the queue (C7): the
    /// authorization in progress and every waiting operation report `sessionEnded`, in call
    /// order, then this outcome: `didEndSession` (no token left in memory or store) or
    /// `didEndSessionWithError` (a failed revocation keeps the session). A waiting `initialize`
    /// still runs first, and the service stays initialized.
    public func endSession(revokeTokens: Bool = false, completion: (@Sendable (Result<Void, SessionError>) -> Void)? = nil) {
        end(with: operation(.endSession, completion) { [self] in
            await withClient(.endSession) { client in
                try await client.signOut(revokeTokens: revokeTokens)
                leaveCurrentAccount(of: client)
            }
        })
    }

    /// Ends the session as ``endSession(revokeTokens:completion:)`` does, then the user's
    /// session at the provider too: `agent` shows its sign-out page (OpenID Connect RP-Initiated
    /// Logout; see `SessionClient.signOut(revokeTokens:endingProviderSessionWith:)`).
    ///
    /// Outcome (C17): `didEndSession` once the session here has ended; when the provider's page
    /// then fails or is cancelled, listeners also hear `didFailToEndProviderSession(error)` and
    /// the completion gets that `providerSignOutIncomplete` error. A provider without an
    /// end-session endpoint is `didEndSessionWithError(unsupportedProviderFeature)`, with
    /// nothing cleared.
    public func endSession(revokeTokens: Bool = false, endingProviderSessionWith agent: AuthorizationAgent,
                           completion: (@Sendable (Result<Void, SessionError>) -> Void)? = nil) {
        end(with: QueuedOperation(kind: .endSession, run: { [self] () async -> [Delivery] in
            let result = await withClient(.endSession) { client in
                do {
                    try await client.signOut(revokeTokens: revokeTokens, endingProviderSessionWith: agent)
                } catch let error as SessionError where error.code == .providerSignOutIncomplete {
                    // The session here has ended all the same.
                    leaveCurrentAccount(of: client)
                    throw error
                }
                leaveCurrentAccount(of: client)
            }
            guard case .failure(let error) = result, error.code == .providerSignOutIncomplete else {
                return [Outcome<Void>.endSession.delivery(result, completion)]
            }
            // The session here has ended: said first, then what the provider's step did.
            return [Outcome<Void>.endSession.delivery(.success(()), nil), Outcome<Void>.providerSignOut.delivery(.failure(error), completion)]
        }, fail: { Outcome<Void>.endSession.delivery(.failure($0), completion) }))
    }

    /// ``endSession(revokeTokens:completion:)``, awaited; it jumps the queue as that call does (C7).
    /// - Throws: the revocation's `SessionError` (the session is then kept).
    public func endSession(revokeTokens: Bool = false) async throws {
        try await awaiting { endSession(revokeTokens: revokeTokens, completion: $0) }
    }

    /// ``endSession(revokeTokens:endingProviderSessionWith:completion:)``, awaited.
    /// - Throws: as ``endSession(revokeTokens:)``; `providerSignOutIncomplete` when the session
    ///   here ended but the provider's sign-out page did not come back.
    public func endSession(revokeTokens: Bool = false, endingProviderSessionWith agent: AuthorizationAgent) async throws {
        try await awaiting { endSession(revokeTokens: revokeTokens, endingProviderSessionWith: agent, completion: $0) }
    }

    /// Puts `endOperation` on the line in `endSession`'s way (C7).
    private func end(with endOperation: QueuedOperation) {
        line.jump(with: endOperation)?.end(with: Self.sessionEnded(.authentication))
    }
}

extension Outcome where Value == Void {
    /// `didEndSession` or `didEndSessionWithError`.
    static var endSession: Outcome {
        Outcome(.endSession, success: { listener, _ in listener.didEndSession() }, failure: { $0.didEndSessionWithError($1) })
    }

    /// The provider's step of an RP-initiated logout failed after the session here ended (C17):
    /// `didFailToEndProviderSession`.
    static var providerSignOut: Outcome {
        Outcome(.endSession, success: { _, _ in }, failure: { $0.didFailToEndProviderSession($1) })
    }
}

extension Outcome where Value == Bool {
    /// As `endSession`'s outcome, for a sign-out whose completion learns whether there was a session.
    static var endSessionInTurn: Outcome { Outcome<Void>.endSession.pulledBack { _ in () } }
}
