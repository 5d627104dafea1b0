// Written the way a netID app is written (Swift 5 language mode, only NetIdCompat imported): an
// NSObject view model that registers itself, keeps a log and implements all twelve callbacks. If
// a NetIdCompat signature drifts from netID's, this file stops compiling.
import Foundation
import NetIdCompat

final class LegacyNetIdApp: NSObject, NetIdServiceDelegate {
    let netIdService: NetIdService
    private let onEvent: (String, String) -> Void
    private let viewController = NSObject()
    var accessToken: String?
    var userInfo: UserInfo?
    var permissions: PermissionReadResponse?
    var lastIdentifiers: SubjectIdentifiers?

    init(netIdService: NetIdService = NetIdService.sharedInstance, onEvent: @escaping (String, String) -> Void) {
        self.netIdService = netIdService
        self.onEvent = onEvent
    }

    func initializeNetIdService(clientId: String, redirectUri: String, extraClaims: Bool) {
        netIdService.registerListener(self)
        let optional = extraClaims ? ", \"shipping_address\": null, \"birthdate\": null" : ""
        let claims = "{\"userinfo\":{\"email\": {\"essential\": true}\(optional)}}"
        let config = NetIdConfig(clientId: clientId, redirectUri: redirectUri, claims: claims, promptWeb: "consent",
                                 loginLayerConfig: LoginLayerConfig(), permissionLayerConfig: PermissionLayerConfig())
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
    func loadPermissions() { netIdService.fetchPermissions() }
    func loadPermissions(collapseSyncId: Bool) { netIdService.fetchPermissions(collapseSyncId: collapseSyncId) }
    func loadAllIdentifiers() {
        netIdService.fetchPermissions(fetchOptions: Set([.tagProtocolIdentifier, .synchronizationIdentifier, .encryptedTagProtocolIdentifier]))
    }
    func updatePermissions(_ status: NetIdPermissionStatus, tcString: String? = nil) {
        netIdService.updatePermission(NetIdPermissionUpdate(idConsent: status, iabTc: tcString))
    }
    func updatePermissions(_ status: NetIdPermissionStatus, collapseSyncId: Bool, fetchOptions: Set<NetIdIdentifierOption>) {
        netIdService.updatePermission(NetIdPermissionUpdate(idConsent: status, iabTc: nil), collapseSyncId: collapseSyncId,
                                      fetchOptions: fetchOptions)
    }
    func setExpiredAccessToken() { netIdService.setAccessToken("an-invalid-token") }
    func endSession() { netIdService.endSession() }
    var currentConfig: NetIdConfig? { netIdService.getNetIdConfig() }

    private func describe(_ error: NetIdError?) -> String {
        guard let error = error else { return "nil" }
        return "\(error.code.rawValue)/\(error.process)"
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
        lastIdentifiers = subjectIdentifiers
        onEvent("didUpdatePermission", "tpid=\(subjectIdentifiers.tpId ?? "-")")
    }

    func didUpdatePermissionWithError(_ permissionResponseStatus: PermissionResponseStatus, _ error: NetIdError) {
        onEvent("didUpdatePermissionWithError", "\(permissionResponseStatus.rawValue) \(describe(error))")
    }
}
