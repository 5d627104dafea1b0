import Foundation
import SessionCore
import SessionPermissions

/// The operations as `async throws` calls, for code migrating call by call from completion
/// handlers to async/await.
///
/// Each goes through the same operation line as its completion-handler form: it takes its place
/// in call order among every other call (C4) when it is entered, listeners hear its outcome as
/// usual (C3), and it returns after they have, once the outcome's block has run on
/// ``callbackQueue``. Cancelling the awaiting task does not cancel the operation; use
/// ``cancelAuthorization()`` or ``endSession(revokeTokens:completion:)`` for that, as with a
/// completion handler.
extension SessionService {
    /// ``initialize(_:permissionCenter:completion:)``, awaited.
    /// - Throws: the initialization's `SessionError`.
    public func initialize(_ configuration: SessionConfiguration, permissionCenter: PermissionCenterEndpoints? = nil) async throws {
        try await outcome { initialize(configuration, permissionCenter: permissionCenter, completion: $0) }
    }

    /// ``getAuthorization(flow:agent:tokensCompletion:)``, awaited: the session's tokens.
    /// - Throws: the authorization's `SessionError` (`cancelled` when the user or
    ///   ``cancelAuthorization()`` cancelled).
    public func getAuthorization(flow: AuthFlow = .login, agent: AuthorizationAgent? = nil) async throws -> SessionTokens {
        try await outcome { getAuthorization(flow: flow, agent: agent, tokensCompletion: $0) }
    }

    /// ``getDeviceAuthorization(flow:codeHandler:tokensCompletion:)``, awaited: the session's
    /// tokens, once the user approved on the other device. `codeHandler` gets the code first.
    /// - Throws: the sign-in's `SessionError` (`accessDenied`, `expiredToken`, `cancelled`, ...).
    public func getDeviceAuthorization(flow: AuthFlow = .login,
                                       codeHandler: (@Sendable (DeviceAuthorization) -> Void)? = nil) async throws -> SessionTokens {
        try await outcome { getDeviceAuthorization(flow: flow, codeHandler: codeHandler, tokensCompletion: $0) }
    }

    /// ``fetchUserInfo(completion:)``, awaited.
    /// - Throws: the request's `SessionError`.
    public func fetchUserInfo() async throws -> UserInfo {
        try await outcome { fetchUserInfo(completion: $0) }
    }

    /// ``fetchPermissions(identifiers:completion:)``, awaited.
    /// - Throws: the request's `SessionError`, with the center's status in `permissionStatus`.
    public func fetchPermissions(identifiers: Set<IdentifierOption> = []) async throws -> PermissionReadResponse {
        try await outcome { fetchPermissions(identifiers: identifiers, completion: $0) }
    }

    /// ``updatePermissions(_:identifiers:completion:)``, awaited.
    /// - Throws: the request's `SessionError`, with the center's status in `permissionStatus`.
    public func updatePermissions(_ update: PermissionUpdate, identifiers: Set<IdentifierOption> = []) async throws -> SubjectIdentifiers {
        try await outcome { updatePermissions(update, identifiers: identifiers, completion: $0) }
    }

    /// ``endSession(revokeTokens:completion:)``, awaited; it jumps the queue as that call does (C7).
    /// - Throws: the revocation's `SessionError` (the session is then kept).
    public func endSession(revokeTokens: Bool = false) async throws {
        try await outcome { endSession(revokeTokens: revokeTokens, completion: $0) }
    }

    /// ``endSession(revokeTokens:endingProviderSessionWith:completion:)``, awaited.
    /// - Throws: as ``endSession(revokeTokens:)``; `providerSignOutIncomplete` when the session
    ///   here ended but the provider's sign-out page did not come back.
    public func endSession(revokeTokens: Bool = false, endingProviderSessionWith agent: AuthorizationAgent) async throws {
        try await outcome { endSession(revokeTokens: revokeTokens, endingProviderSessionWith: agent, completion: $0) }
    }

    /// Starts an operation with a completion that resumes the caller.
    private func outcome<Value: Sendable>(_ start: (@escaping @Sendable (Result<Value, SessionError>) -> Void) -> Void) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            start { continuation.resume(with: $0) }
        }
    }
}
