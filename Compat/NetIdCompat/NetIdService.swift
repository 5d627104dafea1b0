import Foundation
import SessionCore
import SessionFacade

/// What `authorize` presents from: a view controller with UIKit, any object without.
public typealias NetIdPresentationAnchor = PresentationAnchor

/// netID's `NetIdService`, on top of ``SessionService``.
///
/// Legacy code keeps its calls: `registerListener`, `initialize`, `authorize`, `resumeSession`,
/// `fetchUserInfo`, `fetchPermissions`, `updatePermission`, `endSession`, `setAccessToken`.
/// netID's SwiftUI views, buttons and layer styles are not reproduced: the authorization is
/// shown by ``authorizationAgent`` (for example a `LoopbackBrowserAgent`), or, without one,
/// the URL goes to ``SessionService/authorizationURLHandler`` and the app calls
/// ``resumeSession(_:)`` with the redirect, as before.
///
/// Callbacks follow SessionService's contract: on the callback queue (main by default), once
/// per listener, in call order. netID's bugs are not kept; MIGRATION.md lists the differences.
///
/// `@unchecked Sendable`: `config`, `adapters` and `agent` are read and written only while
/// holding `lock`.
public final class NetIdService: @unchecked Sendable {
    /// The service legacy code uses.
    public static let sharedInstance = NetIdService()

    /// The SessionService underneath, for code migrating call by call.
    public let service: SessionService
    private let lock = NSLock()
    private var config: NetIdConfig?
    private var adapters: [NetIdListenerAdapter] = []
    private var agent: AuthorizationAgent?

    private let tracker = InitializationTracker()

    /// Creates a service on `service` (tests and apps with several services make their own).
    public init(service: SessionService = SessionService()) {
        self.service = service
        // Registered before any listener, so a failed initialize is forgotten before they hear of it.
        tracker.onFailure = { [weak self] in
            guard let self else { return }
            self.lock.withLock { self.config = nil }
        }
        service.registerListener(tracker)
    }

    /// Shows the authorization page and brings back the redirect; nil uses the external-resume
    /// path (``resumeSession(_:)``).
    public var authorizationAgent: AuthorizationAgent? {
        get { lock.withLock { agent } }
        set { lock.withLock { agent = newValue } }
    }

    /// Adds a listener. Like netID, the service keeps it (strongly) and never removes it.
    public func registerListener(_ listener: NetIdServiceDelegate) {
        let adapter = NetIdListenerAdapter(listener)
        lock.withLock { adapters.append(adapter) }
        service.registerListener(adapter)
    }

    /// Loads the provider's metadata and restores a stored session.
    /// Callbacks: `didFinishInitializationWithError(nil)`, then `didFinishAuthentication(token)`
    /// when a stored session was restored; a second call after a successful one is ignored.
    public func initialize(_ netIdConfig: NetIdConfig) {
        lock.withLock { if config == nil { config = netIdConfig } }
        service.initialize(configuration: { try netIdConfig.sessionConfiguration() })
    }

    /// The configuration of the current initialization, nil before `initialize`.
    public func getNetIdConfig() -> NetIdConfig? {
        lock.withLock { config }
    }

    /// Hands the redirect the app received to the authorization waiting for it. A URL that is
    /// not the pending authorization's redirect is ignored.
    public func resumeSession(_ url: URL) {
        service.resumeSession(url)
    }

    /// Starts an authorization for `authFlow`. `universalLink` and `currentViewController` are
    /// accepted for source compatibility; the ``authorizationAgent`` presents the page.
    /// Callbacks: `didFinishAuthentication(token)`, `didCancelAuthentication`,
    /// `didFinishAuthenticationWithError`, or `didEncounterNetworkError`.
    public func authorize(universalLink: String? = nil, currentViewController: NetIdPresentationAnchor, authFlow: NetIdAuthFlow) {
        authorize(authFlow: authFlow)
    }

    /// Starts an authorization for `authFlow` without a view controller.
    public func authorize(authFlow: NetIdAuthFlow) {
        service.getAuthorization(flow: authFlow.flow, agent: authorizationAgent)
    }

    /// Ends the session locally (no server call, as in netID): `didEndSession()`.
    public func endSession() {
        service.endSession(revokeTokens: false)
    }

    /// Fetches the UserInfo: `didFetchUserInfo` or `didFetchUserInfoWithError`.
    public func fetchUserInfo() {
        service.fetchUserInfo()
    }

    /// Reads the permissions. `SYNC_ID` is asked for as well unless `collapseSyncId`.
    /// Callbacks: `didFetchPermissions` or `didFetchPermissionsWithError(status, error)`.
    public func fetchPermissions(collapseSyncId: Bool = true, fetchOptions: Set<NetIdIdentifierOption> = []) {
        service.fetchPermissions(identifiers: Self.identifiers(collapseSyncId, fetchOptions))
    }

    /// Writes `permission`. Callbacks: `didUpdatePermission` or `didUpdatePermissionWithError`.
    public func updatePermission(_ permission: NetIdPermissionUpdate, collapseSyncId: Bool = true,
                                 fetchOptions: Set<NetIdIdentifierOption> = []) {
        service.updatePermissions(permission.update, identifiers: Self.identifiers(collapseSyncId, fetchOptions))
    }

    /// Replaces the session's access token (netID's example app uses it to try an invalid or
    /// expired token). It takes effect in call order; there is no callback.
    public func setAccessToken(_ accessToken: String) {
        service.updateTokens { tokens in
            SessionTokens(accessToken: accessToken, refreshToken: tokens.refreshToken, idToken: tokens.idToken,
                          expiresAt: tokens.expiresAt, scopes: tokens.scopes, subject: tokens.subject)
        }
    }

    private static func identifiers(_ collapseSyncId: Bool, _ options: Set<NetIdIdentifierOption>) -> Set<IdentifierOption> {
        collapseSyncId ? options : options.union([.synchronizationIdentifier])
    }
}

/// Forgets the configuration of an `initialize` that failed, so it can be called again.
///
/// `@unchecked Sendable`: `onFailure` is set once, in `NetIdService.init`, before registration.
private final class InitializationTracker: SessionServiceDelegate, @unchecked Sendable {
    var onFailure: (@Sendable () -> Void)?

    func didFinishInitializationWithError(_ error: SessionError?) {
        if let error, error.code != .alreadyInitialized { onFailure?() }
    }
}
