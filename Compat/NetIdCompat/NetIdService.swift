import Foundation
import LegacySessionReaders
import SessionCore
import SessionPermissions
import SessionFacade

/// What `authorize` presents from: a view controller with UIKit, any object without.
public typealias NetIdPresentationAnchor = PresentationAnchor

/// netID's `NetIdService`, on top of `SessionService`.
///
/// Legacy code keeps its calls: `registerListener`, `initialize`, `authorize`, `resumeSession`,
/// `fetchUserInfo`, `fetchPermissions`, `updatePermission`, `endSession`, `setAccessToken`, and
/// the layer calls (`setLayerStyle`, `didTapDismiss`, ...) that do not draw anything. The
/// authorization page is shown by ``authorizationAgent`` (for example a `LoopbackBrowserAgent`),
/// or, without one, its URL goes to `SessionService.authorizationURLHandler` and the app hands
/// the redirect to ``resumeSession(_:)``, as before.
///
/// Callbacks are netID's, for the same situations, and follow SessionService's contract: on the
/// callback queue (main by default), once per registration, in call order. <doc:DifferencesFromNetID> lists
/// where they differ from netID's and why.
///
/// The class is not `Sendable`, as netID's is not, so that an app's subclass (a test double,
/// say) needs no concurrency annotation; its mutable state is kept behind a lock.
open class NetIdService: NSObject {
    // nonisolated(unsafe): every stored property is a constant of a Sendable type.
    /// The service legacy code uses.
    nonisolated(unsafe) public static let sharedInstance = NetIdService()

    /// The SessionService underneath, for code migrating call by call.
    public let service: SessionService
    let state = NetIdServiceState()
    let translator: NetIdCallbackTranslator

    /// Creates a service on a SessionService of its own, as netID's `NetIdService()` does; a
    /// subclass's `init()` can call it.
    public override init() {
        service = SessionService()
        translator = NetIdCallbackTranslator(onInitialization: { [state] error in state.settle(initializationError: error) })
        super.init()
        connect()
    }

    /// Creates a service on `service` (tests and apps with several services make their own).
    public init(service: SessionService) {
        self.service = service
        translator = NetIdCallbackTranslator(onInitialization: { [state] error in state.settle(initializationError: error) })
        super.init()
        connect()
    }

    private func connect() {
        service.registerListener(translator)
    }

    /// Where `initialize` looks for the session netID's SDK left: netID's `UserDefaults` suite
    /// (``NetIdLegacySession``) unless an app or test chooses another. An addition.
    public var legacySession: any LegacySessionSource {
        get { state.withLock { $0.legacySession } }
        set { state.withLock { $0.legacySession = newValue } }
    }

    /// Shows the authorization page and brings back the redirect; nil uses the external-resume
    /// path (``resumeSession(_:)``). Default: a `WebAuthenticationAgent` on iOS, shown from the
    /// view controller `authorize` is given, as netID's AppAuth agent was
    /// (`PlatformDefaults.authorizationAgent(presentingFrom:)`); nil on Linux.
    public var authorizationAgent: AuthorizationAgent? {
        get { state.withLock { $0.agent.agent } }
        set { state.withLock { $0.agent = .chosen(newValue) } }
    }

    /// Adds a listener. As in netID, the service keeps it (strongly) and never removes it; a
    /// listener registered twice hears every callback twice.
    public func registerListener(_ listener: NetIdServiceDelegate) {
        translator.append(listener)
    }

    /// Loads the provider's metadata and restores a stored session: its own, or, the first time,
    /// the one netID's SDK left (``NetIdLegacySession``; see ``NetIdConfig/carriesOverLegacySession``).
    ///
    /// Callbacks: `didFinishInitializationWithError(nil)`, then `didFinishAuthentication(token)`
    /// when a stored session was restored. A failure is `didFinishInitializationWithError` with
    /// `InvalidDiscoveryDocument` (`InitializationError` for a configuration that is not valid),
    /// or `didEncounterNetworkError` when the provider cannot be reached; `initialize` can then
    /// be called again. A call after a successful one is ignored without a callback.
    public func initialize(_ netIdConfig: NetIdConfig) {
        state.withLock { $0.pendingConfigs.append(netIdConfig) }
        service.carryOverLegacySession(from: netIdConfig.carriesOverLegacySession ? legacySession : nil)
        service.initialize(configuration: { try netIdConfig.sessionConfiguration() }, permissionCenter: netIdConfig.permissionCenter)
    }

    /// The configuration of the successful `initialize`, or, while none has succeeded, of the
    /// first one still running; nil before `initialize` and after failed ones.
    public func getNetIdConfig() -> NetIdConfig? {
        state.withLock { $0.config ?? $0.pendingConfigs.first }
    }

    /// Hands the redirect the app received to the authorization waiting for it. A URL that is
    /// not the pending authorization's redirect is ignored.
    public func resumeSession(_ url: URL) {
        service.resumeSession(url)
    }

    /// Starts an authorization for `authFlow`. `universalLink` and `currentViewController` are
    /// accepted for source compatibility; the ``authorizationAgent`` (or the app, through
    /// ``resumeSession(_:)``) brings back the redirect.
    ///
    /// As in netID, a session that exists is announced first with `didFinishAuthentication`, and
    /// an authorization still waiting is replaced: it ends with `didCancelAuthentication`.
    /// Callbacks: `didFinishAuthentication(token)`; `didCancelAuthentication` when the user or
    /// ``didTapDismiss()`` cancelled; `didFinishAuthenticationWithError(NoAuth)` for any other
    /// failure (the cause is in `msg`); `didEncounterNetworkError` when the provider cannot be
    /// reached.
    public func authorize(universalLink: String?, currentViewController: NetIdPresentationAnchor, authFlow: NetIdAuthFlow) {
        authorize(authFlow: authFlow, presentingFrom: currentViewController)
    }

    /// ``authorize(universalLink:currentViewController:authFlow:)`` without a view controller.
    public func authorize(authFlow: NetIdAuthFlow) {
        authorize(authFlow: authFlow, presentingFrom: nil)
    }

    private func authorize(authFlow: NetIdAuthFlow, presentingFrom anchor: NetIdPresentationAnchor?) {
        service.cancelAuthorization()
        service.storedTokens { [translator] result in
            if case .success(let tokens?) = result { translator.broadcast(.authenticated(accessToken: tokens.accessToken)) }
        }
        service.getAuthorization(flow: authFlow.flow, agent: state.withLock { $0.agent.agent(presentingFrom: anchor) })
    }

    /// Ends the session locally, without a server call, as netID does: `didEndSession()`. An
    /// authorization in progress and every call still waiting end first (see
    /// `SessionService.endSession(revokeTokens:completion:)`).
    public func endSession() {
        service.endSession(revokeTokens: false)
    }

    /// Fetches the UserInfo, refreshing the access token first when it is about to expire.
    /// Callbacks: `didFetchUserInfo`, `didFetchUserInfoWithError` (`NoAuth` without a session or
    /// when the request fails), or `didEncounterNetworkError`.
    public func fetchUserInfo() {
        service.fetchUserInfo()
    }

    /// Reads the permissions with the session's permission token. `q.identifier.in` is
    /// `fetchOptions` when there are any (then `collapseSyncId` is ignored), otherwise `TPID`,
    /// plus `SYNC_ID` when `collapseSyncId` is false.
    /// Callbacks: `didFetchPermissions`, `didFetchPermissionsWithError(status, error)`, or
    /// `didEncounterNetworkError`.
    public func fetchPermissions(collapseSyncId: Bool = true, fetchOptions: Set<NetIdIdentifierOption> = []) {
        service.fetchPermissions(identifiers: IdentifierOption.netIdSelection(collapseSyncId: collapseSyncId, fetchOptions: fetchOptions))
    }

    /// Writes `permission` with the session's permission token; `q.identifier.in` as for
    /// ``fetchPermissions(collapseSyncId:fetchOptions:)``.
    /// Callbacks: `didUpdatePermission`, `didUpdatePermissionWithError(status, error)`, or
    /// `didEncounterNetworkError`.
    public func updatePermission(_ permission: NetIdPermissionUpdate, collapseSyncId: Bool = true,
                                 fetchOptions: Set<NetIdIdentifierOption> = []) {
        service.updatePermissions(permission.update,
                                  identifiers: IdentifierOption.netIdSelection(collapseSyncId: collapseSyncId, fetchOptions: fetchOptions))
    }

    /// Replaces the session's access token (netID's example app uses it to try an invalid or
    /// expired token). It takes effect in call order; there is no callback.
    public func setAccessToken(_ accessToken: String) {
        service.updateTokens { $0.withAccessToken(accessToken) }
    }
}
