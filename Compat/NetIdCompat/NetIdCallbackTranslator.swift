import Foundation
import SessionCore
import SessionPermissions
import SessionFacade

/// The one SessionService listener of a ``NetIdService``: turns each outcome into the callback
/// netID makes in that situation and makes it on every netID listener, in registration order.
///
/// The mapping follows netid-sdk-ios 1.2.0 (`NetIdService`, its managers and `Webservice`); where
/// it departs, DifferencesFromNetID.md says so and why.
final class NetIdCallbackTranslator: SessionServiceDelegate, Sendable {
    /// Held strongly and never removed, duplicates included, as netID keeps its listeners.
    private let listeners = Locked<[CallbackQueueBound<NetIdServiceDelegate>]>([])
    /// Runs with each `initialize` outcome before the listeners hear of it.
    private let onInitialization: @Sendable (SessionError?) -> Void

    init(onInitialization: @escaping @Sendable (SessionError?) -> Void) {
        self.onInitialization = onInitialization
    }

    func append(_ listener: NetIdServiceDelegate) {
        listeners.withLock { $0.append(CallbackQueueBound(listener)) }
    }

    /// Makes `callback` on every listener, in registration order; nil makes none.
    func broadcast(_ callback: NetIdCallback?) {
        guard let callback else { return }
        for listener in listeners.value { callback.deliver(to: listener.value) }
    }

    // MARK: SessionServiceDelegate

    func didFinishInitializationWithError(_ error: SessionError?) {
        onInitialization(error)
        broadcast(Self.initialization(error))
    }

    func didFinishAuthentication(_ accessToken: String) { broadcast(.authenticated(accessToken: accessToken)) }
    func didFinishAuthenticationWithError(_ error: SessionError) { broadcast(Self.authentication(error)) }
    func didCancelAuthentication(_ error: SessionError) { broadcast(.cancelled(Self.netIdError(.AuthorizationCanceledByUser, .Authentication, error))) }
    func didFetchUserInfo(_ userInfo: SessionCore.UserInfo) {
        do {
            broadcast(.userInfo(try UserInfo(userInfo)))
        } catch let error as SessionError {
            broadcast(Self.userInfo(error))
        } catch {
            broadcast(Self.userInfo(SessionError(.invalidResponse, process: .userInfo, message: "UserInfo response: unreadable")))
        }
    }
    func didFetchUserInfoWithError(_ error: SessionError) { broadcast(Self.userInfo(error)) }

    func didFetchPermissions(_ permissions: SessionPermissions.PermissionReadResponse) {
        broadcast(.permissions(PermissionReadResponse(permissions)))
    }

    func didFetchPermissionsWithError(_ status: SessionPermissions.PermissionCenterStatus, _ error: SessionError) {
        broadcast(Self.permissions(status, error, .PermissionRead))
    }

    func didUpdatePermissions(_ subjectIdentifiers: SessionPermissions.SubjectIdentifiers) {
        broadcast(.permissionUpdated(SubjectIdentifiers(subjectIdentifiers)))
    }

    func didUpdatePermissionsWithError(_ status: SessionPermissions.PermissionCenterStatus, _ error: SessionError) {
        broadcast(Self.permissions(status, error, .PermissionWrite))
    }

    func didEndSession() { broadcast(.sessionEnded) }

    /// netID has no error callback for `endSession`; a store that could not be cleared is
    /// reported as a failed authentication state rather than lost.
    func didEndSessionWithError(_ error: SessionError) {
        broadcast(Self.unreachable(error, .Authentication) ?? .authenticationFailed(Self.netIdError(.Other, .Authentication, error)))
    }

    // MARK: netID's callback for each failure

    static func netIdError(_ code: NetIdErrorCode, _ process: NetIdErrorProcess, _ error: SessionError) -> NetIdError {
        NetIdError(code: code, process: process, msg: error.description)
    }

    /// A connection that could not be opened is netID's "no network": `didEncounterNetworkError`
    /// and nothing else. Failures after connecting go to the operation's own error callback.
    static func unreachable(_ error: SessionError, _ process: NetIdErrorProcess) -> NetIdCallback? {
        error.code == .cannotConnect ? .networkError(netIdError(.NetworkError, process, error)) : nil
    }

    /// nil, the SDK's silence, for a second `initialize`. netID reports every failure to load the
    /// provider's metadata as `InvalidDiscoveryDocument`.
    static func initialization(_ error: SessionError?) -> NetIdCallback? {
        guard let error else { return .initialized(nil) }
        guard error.code != .alreadyInitialized else { return nil }
        if let unreachable = unreachable(error, .Configuration) { return unreachable }
        let code: NetIdErrorCode = switch error.code {
        case .invalidConfiguration: .InitializationError
        case .storageFailed, .storageCorrupt, .cryptoFailure: .Other
        default: .InvalidDiscoveryDocument
        }
        return .initialized(netIdError(code, .Configuration, error))
    }

    /// netID reports every failed sign-in as `NoAuth`; the cause is in `msg`.
    static func authentication(_ error: SessionError) -> NetIdCallback {
        if let unreachable = unreachable(error, .Authentication) { return unreachable }
        let code: NetIdErrorCode = [.notInitialized, .invalidConfiguration].contains(error.code) ? .InitializationError : .NoAuth
        return .authenticationFailed(netIdError(code, .Authentication, error))
    }

    /// netID's UserInfo failures: `NoAuth` for a missing session and for every refused or failed
    /// request, `JsonDeserializationError` for a body it cannot read.
    static func userInfo(_ error: SessionError) -> NetIdCallback {
        if let unreachable = unreachable(error, .UserInfo) { return unreachable }
        let code: NetIdErrorCode = switch error.code {
        case .invalidResponse, .responseTooLarge: .JsonDeserializationError
        case .unsupportedProviderFeature: .InvalidDiscoveryDocument
        default: .NoAuth
        }
        return .userInfoFailed(netIdError(code, .UserInfo, error))
    }

    /// netID's permission failures: `TOKEN_ERROR`/`UnauthorizedClient` without a permission
    /// token; the center's `status_code` with `InvalidRequest` (`Other` for
    /// `TPID_EXISTENCE_ERROR`) when it refused; `UNKNOWN` with `Unknown` for a failed request or
    /// `JsonDeserializationError` for an unreadable answer.
    static func permissions(_ status: SessionPermissions.PermissionCenterStatus, _ error: SessionError,
                            _ process: NetIdErrorProcess) -> NetIdCallback {
        if let unreachable = unreachable(error, process) { return unreachable }
        let netIdStatus: PermissionResponseStatus
        let code: NetIdErrorCode
        switch error.code {
        case .permissionRequestFailed:
            netIdStatus = PermissionResponseStatus(status)
            code = netIdStatus == .TPID_EXISTENCE_ERROR ? .Other : .InvalidRequest
        case .notAuthenticated, .notInitialized, .reauthenticationRequired, .sessionEnded, .insufficientScope, .idTokenMalformed:
            (netIdStatus, code) = (.TOKEN_ERROR, .UnauthorizedClient)
        case .invalidResponse, .responseTooLarge:
            (netIdStatus, code) = (.UNKNOWN, .JsonDeserializationError)
        case .invalidConfiguration:
            (netIdStatus, code) = (.UNKNOWN, .InitializationError)
        default:
            (netIdStatus, code) = (.UNKNOWN, .Unknown)
        }
        let netIdError = netIdError(code, process, error)
        return process == .PermissionRead ? .permissionsFailed(netIdStatus, netIdError) : .permissionUpdateFailed(netIdStatus, netIdError)
    }
}
