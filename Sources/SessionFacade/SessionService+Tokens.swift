import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SessionCore

/// The token calls: ordered like operations (C4), reported to their completion handler only.
/// Apps porting from netID, GrabID or Google Sign-In use them where the legacy SDK handed out or
/// replaced tokens (MIGRATION.md indexes the guide for each SDK).
extension SessionService {
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
                throw SessionError.noSession(.authentication)
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

    /// Refreshes the tokens now, whatever their expiry; ordered and reported like
    /// ``currentTokens(completion:)``.
    public func refreshTokens(completion: @escaping @Sendable (Result<SessionTokens, SessionError>) -> Void) {
        completionOnly(completion) { try await $0.refresh() }
    }

    /// `request` with `Authorization: Bearer` and the session's access token, refreshed first when
    /// it expires within the leeway (C8): for an app's own requests to its API (see
    /// `SessionClient.authorize(_:)`). Ordered and reported like ``currentTokens(completion:)``.
    public func authorize(_ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, SessionError>) -> Void) {
        authorize(request, subject: nil, completion: completion)
    }

    /// ``authorize(_:completion:)``, failing with `notAuthenticated` unless the session is
    /// `subject`'s (when given): for an authorizer handed out for one user.
    package func authorize(_ request: URLRequest, subject: String?,
                           completion: @escaping @Sendable (Result<URLRequest, SessionError>) -> Void) {
        completionOnly(completion) { try await $0.authorize(request, subject: subject) }
    }

    /// An ordered operation whose outcome goes to `completion` only.
    func completionOnly<T: Sendable>(_ completion: (@Sendable (Result<T, SessionError>) -> Void)?,
                                             _ work: @escaping @Sendable (SessionClient) async throws -> T) {
        performOnClient(.completionOnly(.tokenChange), completion, work)
    }
}
