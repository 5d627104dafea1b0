// netid-sample: a netID-style app, unchanged but for `import NetIdCompat`, run against the
// embedded LocalProvider. Callbacks arrive on the main queue, as in netID.
import Dispatch
import Foundation
import NetIdCompat
import SessionTesting

final class ServiceViewModel: NetIdServiceDelegate {
    private let provider: LocalProvider
    private var step = 0

    init(provider: LocalProvider) {
        self.provider = provider
    }

    func initializeNetIdService() {
        NetIdService.sharedInstance.registerListener(self)
        NetIdService.sharedInstance.authorizationAgent = HeadlessUserAgent()
        let claims = "{\"userinfo\":{\"email\": {\"essential\": true}, \"email_verified\": {\"essential\": true}}}"
        let config = NetIdConfig(clientId: "session-demo", redirectUri: "com.example.sessiondemo:/callback", claims: claims,
                                 promptWeb: nil, loginLayerConfig: nil, permissionLayerConfig: nil,
                                 issuer: provider.issuer, permissionCenter: (try? provider.permissionCenter) ?? .netID)
        NetIdService.sharedInstance.initialize(config)
    }

    private func say(_ text: String) {
        step += 1
        print("\(step). \(text)")
    }

    private func finish(_ code: Int32) {
        provider.stop()
        exit(code)
    }

    func didFinishInitializationWithError(_ error: NetIdError?) {
        if let error = error {
            say("initialization failed: \(error.code.rawValue)")
            return finish(1)
        }
        say("initialized; authorizing (Login + Permission)")
        NetIdService.sharedInstance.authorize(universalLink: nil, currentViewController: self, authFlow: .LoginPermission)
    }

    func didFinishAuthentication(_ accessToken: String) {
        say("authorized; loading user info")
        NetIdService.sharedInstance.fetchUserInfo()
    }

    func didFinishAuthenticationWithError(_ error: NetIdError?) {
        say("authorization failed: \(error?.code.rawValue ?? "unknown")")
        finish(1)
    }

    func didFetchUserInfo(_ userInfo: UserInfo) {
        say("hello \(userInfo.givenName ?? userInfo.sub) <\(userInfo.email ?? "-")>; loading permissions")
        NetIdService.sharedInstance.fetchPermissions(collapseSyncId: false, fetchOptions: [.tagProtocolIdentifier])
    }

    func didFetchUserInfoWithError(_ error: NetIdError) {
        say("user info failed: \(error.code.rawValue)")
        finish(1)
    }

    func didFetchPermissions(_ permissions: PermissionReadResponse) {
        let consent = permissions.netIdPrivacySettings?.idConsent?.status?.rawValue ?? "none"
        say("permissions: \(permissions.statusCode.rawValue), idconsent \(consent); withdrawing the consent")
        NetIdService.sharedInstance.updatePermission(NetIdPermissionUpdate(idConsent: .INVALID, iabTc: nil))
    }

    func didFetchPermissionsWithError(_ permissionResponseStatus: PermissionResponseStatus, _ error: NetIdError) {
        say("permissions failed: \(permissionResponseStatus.rawValue)")
        finish(1)
    }

    func didUpdatePermission(_ subjectIdentifiers: SubjectIdentifiers) {
        say("consent updated; ending the session")
        NetIdService.sharedInstance.endSession()
    }

    func didUpdatePermissionWithError(_ permissionResponseStatus: PermissionResponseStatus, _ error: NetIdError) {
        say("update failed: \(permissionResponseStatus.rawValue)")
        finish(1)
    }

    func didEndSession() {
        say("session ended")
        finish(0)
    }

    func didEncounterNetworkError(_ error: NetIdError) {
        say("network error in \(error.process.rawValue)")
        finish(1)
    }

    func didCancelAuthentication(_ error: NetIdError) {
        say("authorization cancelled")
        finish(1)
    }
}

let provider = try LocalProvider()
let viewModel = ServiceViewModel(provider: provider)
viewModel.initializeNetIdService()
dispatchMain()
