import Foundation
import SessionCore

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
        let notify: @Sendable (SessionServiceDelegate) -> Void = switch result {
        case .success(let info): { $0.didFetchUserInfo(info) }
        case .failure(let error): { $0.didFetchUserInfoWithError(error) }
        }
        return Delivery(notify: notify, complete: completing(completion, with: result))
    }

    static func permissions(_ result: Result<PermissionReadResponse, SessionError>,
                            _ completion: (@Sendable (Result<PermissionReadResponse, SessionError>) -> Void)?) -> Delivery {
        let notify: @Sendable (SessionServiceDelegate) -> Void = switch result {
        case .success(let response): { $0.didFetchPermissions(response) }
        case .failure(let error): { $0.didFetchPermissionsWithError(error.permissionStatus ?? .unknown, error) }
        }
        return Delivery(notify: notify, complete: completing(completion, with: result))
    }

    static func permissionUpdate(_ result: Result<SubjectIdentifiers, SessionError>,
                                 _ completion: (@Sendable (Result<SubjectIdentifiers, SessionError>) -> Void)?) -> Delivery {
        let notify: @Sendable (SessionServiceDelegate) -> Void = switch result {
        case .success(let identifiers): { $0.didUpdatePermissions(identifiers) }
        case .failure(let error): { $0.didUpdatePermissionsWithError(error.permissionStatus ?? .unknown, error) }
        }
        return Delivery(notify: notify, complete: completing(completion, with: result))
    }

    static func endSession<Value: Sendable>(_ result: Result<Value, SessionError>,
                                           _ completion: (@Sendable (Result<Value, SessionError>) -> Void)?) -> Delivery {
        let notify: @Sendable (SessionServiceDelegate) -> Void = switch result {
        case .success: { $0.didEndSession() }
        case .failure(let error): { $0.didEndSessionWithError(error) }
        }
        return Delivery(notify: notify, complete: completing(completion, with: result))
    }
}
