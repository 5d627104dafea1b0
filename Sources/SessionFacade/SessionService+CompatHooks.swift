import Foundation
import SessionCore
import SessionPermissions

/// What the compat modules build legacy behaviour from, beyond the public operations: `package`,
/// so apps see only the contract. Each is ordered like an operation (C4) unless it says otherwise.
extension SessionService {
    /// As ``initialize(_:permissionCenter:completion:)``, with the configuration built when the
    /// operation runs: an error `configuration` throws is the outcome (`invalidConfiguration` for
    /// anything that is not a ``SessionError``). Compat layers use it to keep a legacy
    /// configuration's validation in call order.
    package func initialize(configuration: @escaping @Sendable () throws -> SessionConfiguration,
                           permissionCenter: PermissionCenterEndpoints? = nil,
                           completion: (@Sendable (Result<Void, SessionError>) -> Void)? = nil) {
        line.enqueue(QueuedOperation(kind: .initialize, run: { [self] in await runInitialize(configuration, permissionCenter, completion) },
                                     fail: { Outcome<Void>.initialization.delivery(.failure($0), completion) }))
    }

    /// Whether an access token that expires at `expiresAt` is still fresh by the client's rule
    /// (C8, ``SessionClient/isFresh(expiresAt:)``); false before a successful `initialize`.
    /// Compat layers answer "is the token valid" with it.
    package func isFresh(expiresAt: Date) -> Bool {
        state.withLock { $0.client }?.isFresh(expiresAt: expiresAt) ?? false
    }

    /// The session's tokens as stored, possibly expired, or nil without a session: no refresh,
    /// no request. Ordered and reported like ``currentTokens(completion:)``; fails with
    /// `notInitialized` before `initialize`.
    package func storedTokens(completion: @escaping @Sendable (Result<SessionTokens?, SessionError>) -> Void) {
        completionOnly(completion) { await $0.tokens }
    }

    /// Runs `body` on ``callbackQueue`` in call order (C4): after the outcomes of every operation
    /// called before it, before those of every operation called after it. It is no operation: it
    /// has no outcome, needs no `initialize`, and `endSession` does not drop it (C7). Compat
    /// layers use it for callbacks a legacy SDK makes outside any operation.
    package func enqueueCallback(_ body: @escaping @Sendable () -> Void) {
        let delivery = Delivery(notify: { _ in }, complete: body)
        line.enqueue(QueuedOperation(kind: .deliveryOnly, run: { [delivery] }, fail: { _ in delivery }))
    }

    /// Ends the session in its turn (C4): after every operation called before it, which run as
    /// usual, unlike ``endSession(revokeTokens:completion:)``, which jumps the queue (C7). For
    /// legacy APIs whose sign-out is ordered with their other calls. Outcome as `endSession`'s;
    /// the completion gets true when there was a session to end, false when there was none.
    package func endSessionInTurn(revokeTokens: Bool = false, completion: @escaping @Sendable (Result<Bool, SessionError>) -> Void) {
        performOnClient(.endSessionInTurn, completion) { client in
            let hadSession = await client.tokens != nil
            try await client.signOut(revokeTokens: revokeTokens)
            return hadSession
        }
    }
}
