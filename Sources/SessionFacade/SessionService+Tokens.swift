import Foundation
import SessionCore

/// Calls for tests and the compat layers: ordered like operations (C4), reported to their
/// completion handler only (or, for ``SessionService/enqueueCallback(_:)``, to nobody but the
/// block itself).
extension SessionService {
    /// Whether an access token that expires at `expiresAt` is still fresh by the client's rule
    /// (C8, ``SessionClient/isFresh(expiresAt:)``); false before a successful `initialize`.
    /// Compat layers answer "is the token valid" with it.
    public func isFresh(expiresAt: Date) -> Bool {
        line.withLock { $0.client }?.isFresh(expiresAt: expiresAt) ?? false
    }

    /// Marks the current access token as expired, so the next operation that needs it refreshes
    /// it first (C8), as netID's example app does to try the refresh path. See
    /// ``updateTokens(_:completion:)`` for how it is ordered and reported.
    public func expireAccessToken(completion: (@Sendable (Result<Void, SessionError>) -> Void)? = nil) {
        updateTokens({ [clock] in $0.withExpiry(clock.now().addingTimeInterval(-1)) }, completion: completion)
    }

    /// Replaces the current session's tokens with `change(tokens)`, in memory and in the store:
    /// for tests and compat layers (netID's `setAccessToken`). Ordered and reported like
    /// ``currentTokens(completion:)``. Fails with `notInitialized`, or `notAuthenticated`
    /// without a session.
    public func updateTokens(_ change: @escaping @Sendable (SessionTokens) -> SessionTokens,
                             completion: (@Sendable (Result<Void, SessionError>) -> Void)? = nil) {
        completionOnly(completion) { client in
            guard let tokens = await client.tokens else {
                throw SessionError(.notAuthenticated, process: .authentication, message: "there is no session")
            }
            try await client.setTokens(change(tokens))
        }
    }

    /// The session's tokens, refreshed first when the access token expires within the leeway
    /// (C8). It waits its turn like an operation (C4) and ends with `sessionEnded` when
    /// `endSession` jumps it (C7), but only `completion` hears of it: there is no listener
    /// callback. Compat layers use it for Google Sign-In's `getTokensWithHandler`.
    /// Fails with `notInitialized`, `notAuthenticated`, or the refresh's error.
    public func currentTokens(completion: @escaping @Sendable (Result<SessionTokens, SessionError>) -> Void) {
        completionOnly(completion) { try await $0.validTokens() }
    }

    /// The session's tokens as stored, possibly expired, or nil without a session: no refresh,
    /// no request. Ordered and reported like ``currentTokens(completion:)``; fails with
    /// `notInitialized` before `initialize`.
    public func storedTokens(completion: @escaping @Sendable (Result<SessionTokens?, SessionError>) -> Void) {
        completionOnly(completion) { await $0.tokens }
    }

    /// Runs `body` on ``callbackQueue`` in call order (C4): after the outcomes of every operation
    /// called before it, before those of every operation called after it. It is no operation: it
    /// has no outcome, needs no `initialize`, and `endSession` does not drop it (C7). Compat
    /// layers use it for callbacks a legacy SDK makes outside any operation.
    public func enqueueCallback(_ body: @escaping @Sendable () -> Void) {
        let delivery = Delivery(notify: { _ in }, complete: body)
        enqueue(.deliveryOnly, .configuration, fail: { _ in delivery }) { [delivery] }
    }

    /// Refreshes the tokens now, whatever their expiry; ordered and reported like
    /// ``currentTokens(completion:)``.
    public func refreshTokens(completion: @escaping @Sendable (Result<SessionTokens, SessionError>) -> Void) {
        completionOnly(completion) { try await $0.refresh() }
    }

    /// An ordered operation whose outcome goes to `completion` only.
    private func completionOnly<T: Sendable>(_ completion: (@Sendable (Result<T, SessionError>) -> Void)?,
                                             _ work: @escaping @Sendable (SessionClient) async throws -> T) {
        enqueue(.tokenChange, .authentication, fail: { Delivery.completionOnly(.failure($0), completion) }) { [self] in
            [Delivery.completionOnly(await withClient(.authentication, work), completion)]
        }
    }
}
