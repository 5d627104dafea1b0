// Written the way a netID app is written (Swift 5 language mode, only NetIdCompat imported):
// if a NetIdCompat signature drifts from netID's, this file stops compiling.
import Foundation
import NetIdCompat

final class LegacyNetIdApp: NetIdServiceDelegate {
    let netIdService: NetIdService
    private let onEvent: (String, String) -> Void
    private let viewController = NSObject()
    var accessToken: String?
    var userInfo: UserInfo?
    var permissions: PermissionReadResponse?

    init(netIdService: NetIdService = NetIdService.sharedInstance, onEvent: @escaping (String, String) -> Void) {
        self.netIdService = netIdService
        self.onEvent = onEvent
    }

    func initializeNetIdService(clientId: String, redirectUri: String, claims: String? = nil) {
        netIdService.registerListener(self)
        let loginLayerConfig = LoginLayerConfig(headlineText: "Headline text", loginText: "Login with app %s", continueText: "Continue text")
        let permissionLayerConfig = PermissionLayerConfig(logoName: "logo", headlineText: "Headline", legalText: "Legal", continueText: "Continue")
        let config = NetIdConfig(clientId: clientId, redirectUri: redirectUri, claims: claims, promptWeb: nil,
                                 loginLayerConfig: loginLayerConfig, permissionLayerConfig: permissionLayerConfig)
        netIdService.initialize(config)
    }

    func initialize(with config: NetIdConfig) {
        netIdService.registerListener(self)
        netIdService.initialize(config)
    }

    func authorize(_ authFlow: NetIdAuthFlow) {
        netIdService.authorize(universalLink: nil, currentViewController: viewController, authFlow: authFlow)
    }

    func resume(_ url: URL) { netIdService.resumeSession(url) }
    func loadUserInfo() { netIdService.fetchUserInfo() }
    func loadPermissions() { netIdService.fetchPermissions(collapseSyncId: false, fetchOptions: [.tagProtocolIdentifier]) }
    func loadPermissionsDefault() { netIdService.fetchPermissions() }
    func updatePermissions(_ status: NetIdPermissionStatus, tcString: String? = nil) {
        netIdService.updatePermission(NetIdPermissionUpdate(idConsent: status, iabTc: tcString), collapseSyncId: true,
                                      fetchOptions: [.tagProtocolIdentifier])
    }
    func setExpiredAccessToken() { netIdService.setAccessToken("an-invalid-token") }
    func endSession() { netIdService.endSession() }
    var currentConfig: NetIdConfig? { netIdService.getNetIdConfig() }

    private func describe(_ error: NetIdError?) -> String {
        guard let error = error else { return "nil" }
        return "\(error.code.rawValue)/\(error.process.rawValue)"
    }

    // MARK: NetIdServiceDelegate, every method as netID declares it

    func didFinishInitializationWithError(_ error: NetIdError?) { onEvent("didFinishInitializationWithError", describe(error)) }
    func didFinishAuthentication(_ accessToken: String) {
        self.accessToken = accessToken
        onEvent("didFinishAuthentication", "token")
    }
    func didFinishAuthenticationWithError(_ error: NetIdError?) { onEvent("didFinishAuthenticationWithError", describe(error)) }
    func didFetchUserInfo(_ userInfo: UserInfo) {
        self.userInfo = userInfo
        onEvent("didFetchUserInfo", "sub=\(userInfo.sub) given_name=\(userInfo.givenName ?? "-")")
    }
    func didFetchUserInfoWithError(_ error: NetIdError) { onEvent("didFetchUserInfoWithError", describe(error)) }
    func didEndSession() { onEvent("didEndSession", "") }
    func didEncounterNetworkError(_ error: NetIdError) { onEvent("didEncounterNetworkError", describe(error)) }
    func didCancelAuthentication(_ error: NetIdError) { onEvent("didCancelAuthentication", describe(error)) }
    func didFetchPermissions(_ permissions: PermissionReadResponse) {
        self.permissions = permissions
        let consent = permissions.netIdPrivacySettings?.idConsent?.status?.rawValue ?? "-"
        onEvent("didFetchPermissions", "\(permissions.statusCode.rawValue) idconsent=\(consent) tpid=\(permissions.subjectIdentifiers?.tpId ?? "-")")
    }
    func didFetchPermissionsWithError(_ permissionResponseStatus: PermissionResponseStatus, _ error: NetIdError) {
        onEvent("didFetchPermissionsWithError", "\(permissionResponseStatus.rawValue) \(describe(error))")
    }
    func didUpdatePermission(_ subjectIdentifiers: SubjectIdentifiers) {
        onEvent("didUpdatePermission", "tpid=\(subjectIdentifiers.tpId ?? "-")")
    }
    func didUpdatePermissionWithError(_ permissionResponseStatus: PermissionResponseStatus, _ error: NetIdError) {
        onEvent("didUpdatePermissionWithError", "\(permissionResponseStatus.rawValue) \(describe(error))")
    }
}
