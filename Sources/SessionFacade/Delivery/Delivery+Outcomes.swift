import Foundation
import SessionCore
import SessionPermissions

/// Each operation's outcome as a delivery: which listener callback it is, and the completion.
extension Delivery {
    private static func completing<T: Sendable>(_ completion: (@Sendable (Result<T, SessionError>) -> Void)?,
                                                with result: Result<T, SessionError>) -> (@Sendable () -> Void)? {
        guard let completion else { return nil }
        return { completion(result) }
    }

    /// An outcome only the caller's completion handler hears of (the token calls).
    static func completionOnly<T: Sendable>(_ result: Result<T, SessionError>,
                                            _ completion: (@Sendable (Result<T, SessionError>) -> Void)?) -> Delivery {
        Delivery(notify: { _ in }, complete: completing(completion, with: result))
    }

    static func initialization(_ result: Result<Void, SessionError>,
                               _ completion: (@Sendable (Result<Void, SessionError>) -> Void)?) -> Delivery {
        let error: SessionError? = if case .failure(let error) = result { error } else { nil }
        return Delivery(notify: { $0.didFinishInitializationWithError(error) }, complete: completing(completion, with: result))
    }

    static func authentication(_ result: Result<String, SessionError>,
                               _ completion: (@Sendable (Result<String, SessionError>) -> Void)?) -> Delivery {
        Delivery(notify: authenticationNotice(result), complete: completing(completion, with: result))
    }

    /// A sign-in whose completion gets the whole ``SessionTokens``; listeners hear the access token.
    static func authentication(_ result: Result<SessionTokens, SessionError>,
                               _ completion: (@Sendable (Result<SessionTokens, SessionError>) -> Void)?) -> Delivery {
        Delivery(notify: authenticationNotice(result.map(\.accessToken)), complete: completing(completion, with: result))
    }

    private static func authenticationNotice(_ result: Result<String, SessionError>) -> @Sendable (SessionServiceDelegate) -> Void {
        switch result {
        case .success(let token): { $0.didFinishAuthentication(token) }
        case .failure(let error) where error.code == .cancelled: { $0.didCancelAuthentication(error) }
        case .failure(let error): { $0.didFinishAuthenticationWithError(error) }
        }
    }

    static func userInfo(_ result: Result<UserInfo, SessionError>,
                         _ completion: (@Sendable (Result<UserInfo, SessionError>) -> Void)?) -> Delivery {
        outcome(result, completion, success: { $0.didFetchUserInfo($1) }, failure: { $0.didFetchUserInfoWithError($1) })
    }

    static func permissions(_ result: Result<PermissionReadResponse, SessionError>,
                            _ completion: (@Sendable (Result<PermissionReadResponse, SessionError>) -> Void)?) -> Delivery {
        outcome(result, completion, success: { $0.didFetchPermissions($1) },
                failure: { $0.didFetchPermissionsWithError($1.permissionStatus ?? .unknown, $1) })
    }

    static func permissionUpdate(_ result: Result<SubjectIdentifiers, SessionError>,
                                 _ completion: (@Sendable (Result<SubjectIdentifiers, SessionError>) -> Void)?) -> Delivery {
        outcome(result, completion, success: { $0.didUpdatePermissions($1) },
                failure: { $0.didUpdatePermissionsWithError($1.permissionStatus ?? .unknown, $1) })
    }

    static func endSession<Value: Sendable>(_ result: Result<Value, SessionError>,
                                           _ completion: (@Sendable (Result<Value, SessionError>) -> Void)?) -> Delivery {
        outcome(result, completion, success: { listener, _ in listener.didEndSession() }, failure: { $0.didEndSessionWithError($1) })
    }

    /// The provider's step of an RP-initiated logout failed after the session here ended (C17).
    static func providerSignOutFailed(_ error: SessionError, _ completion: (@Sendable (Result<Void, SessionError>) -> Void)?) -> Delivery {
        Delivery(notify: { $0.didFailToEndProviderSession(error) }, complete: completing(completion, with: .failure(error)))
    }

    /// The delivery of `result`: the listener callback `success` or `failure` names, then the completion.
    private static func outcome<Value: Sendable>(_ result: Result<Value, SessionError>,
                                                 _ completion: (@Sendable (Result<Value, SessionError>) -> Void)?,
                                                 success: @escaping @Sendable (SessionServiceDelegate, Value) -> Void,
                                                 failure: @escaping @Sendable (SessionServiceDelegate, SessionError) -> Void) -> Delivery {
        let notify: @Sendable (SessionServiceDelegate) -> Void = switch result {
        case .success(let value): { success($0, value) }
        case .failure(let error): { failure($0, error) }
        }
        return Delivery(notify: notify, complete: completing(completion, with: result))
    }

    /// A ``SessionEvent``: listeners only, no completion (C15).
    static func event(_ event: SessionEvent) -> Delivery {
        switch event {
        case .tokensRefreshed(let tokens): Delivery(notify: { $0.didRefreshSession(tokens.accessToken) }, complete: nil)
        case .sessionLost(let error): Delivery(notify: { $0.didLoseSession(error) }, complete: nil)
        }
    }
}
