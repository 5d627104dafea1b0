// grabid-sample: a GrabID partner app, unchanged but for `import GrabIdCompat`, run against the
// embedded LocalProvider. The settings that would live in Info.plist are given as a dictionary.
import Dispatch
import Foundation
import GrabIdCompat
import SessionTesting

let provider = try LocalProvider()

final class SignInController {
    var loginSession: LoginSession?

    func signInWithLoginConfig() {
        guard let grabIdPartner = GrabIdPartner.sharedInstance() else {
            print("no GrabIdPartner")
            exit(1)
        }
        grabIdPartner.loadLoginSession() { [weak self] (loginSession, error) in
            guard let self = self, let loginSession = loginSession, error == nil else {
                print("1. loading the configuration failed: \(String(describing: error?.code))")
                exit(1)
            }
            self.loginSession = loginSession
            print("1. login session loaded for client \(loginSession.clientId)")
            grabIdPartner.login(loginSession: loginSession, presentingViewController: self) { (error) in
                if let error = error {
                    print("2. login failed: \(error.domain) \(error.code)")
                    exit(1)
                }
                print("2. logged in; access token valid: \(grabIdPartner.isValidAccessToken(loginSession: loginSession))")
                grabIdPartner.getIdTokenInfo(loginSession: loginSession) { (idTokenInfo, error) in
                    guard let idTokenInfo = idTokenInfo, error == nil else {
                        print("3. no ID token info")
                        exit(1)
                    }
                    print("3. ID token for user \(idTokenInfo.partnerUserId ?? "-") from \(idTokenInfo.issuer ?? "-"), valid: \(grabIdPartner.isValidIdToken(idTokenInfo: idTokenInfo))")
                    grabIdPartner.logout(loginSession: loginSession) { (error) in
                        print("4. logged out\(error == nil ? "" : " with an error")")
                        provider.stop()
                        exit(error == nil ? 0 : 1)
                    }
                }
            }
        }
    }
}

if let partner = GrabIdPartner.sharedInstance() as? GrabIdPartner {
    partner.authorizationAgent = HeadlessUserAgent()
    partner.configuration = [
        "ClientId": "session-demo",
        "RedirectUrl": "com.example.sessiondemo:/callback",
        "Scope": "openid profile",
        "ServiceDiscoveryUrl": provider.issuer.absoluteString + "/.well-known/openid-configuration",
    ]
}
let controller = SignInController()
controller.signInWithLoginConfig()
dispatchMain()
