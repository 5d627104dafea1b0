// Written the way a Google Sign-In 5 app is written (Swift 5 language mode, only
// GoogleSignInCompat imported): if a signature drifts from Google's, this file stops compiling.
import Foundation
import GoogleSignInCompat

final class LegacyGoogleApp: NSObject, GIDSignInDelegate {
    let signIn: GIDSignIn
    let viewController = NSObject()
    private let onEvent: (String, String) -> Void
    var lastUser: GIDGoogleUser?

    init(signIn: GIDSignIn! = GIDSignIn.sharedInstance(), onEvent: @escaping (String, String) -> Void) {
        self.signIn = signIn
        self.onEvent = onEvent
    }

    func configure(clientID: String) {
        signIn.clientID = clientID
        signIn.delegate = self
        signIn.presentingViewController = viewController
        signIn.scopes = []
        signIn.shouldFetchBasicProfile = true
        signIn.loginHint = nil
    }

    func restore() {
        if signIn.hasPreviousSignIn() {
            onEvent("hasPreviousSignIn", "true")
        }
        signIn.restorePreviousSignIn()
    }

    func signInTapped() { signIn.signIn() }
    func signOutTapped() { signIn.signOut() }
    func disconnectTapped() { signIn.disconnect() }
    func open(_ url: URL) -> Bool { return signIn.handle(url) }

    func fetchTokens() {
        signIn.currentUser.authentication.do { authentication, error in
            self.onEvent("getTokens", error == nil && authentication.accessToken != nil ? "ok" : "error")
        }
    }

    func refreshTokens() {
        signIn.currentUser.authentication.refreshTokens { authentication, error in
            self.onEvent("refreshTokens", error == nil && authentication?.accessToken != nil ? "ok" : "error")
        }
    }

    func sign(_ signIn: GIDSignIn!, didSignInFor user: GIDGoogleUser!, withError error: Error!) {
        let onMain = Thread.isMainThread ? "" : " OFF-MAIN"
        if let error = error {
            let code = (error as NSError).code
            if code == GIDSignInErrorCode.hasNoAuthInKeychain.rawValue {
                onEvent("didSignIn", "hasNoAuthInKeychain" + onMain)
            } else if code == GIDSignInErrorCode.canceled.rawValue {
                onEvent("didSignIn", "canceled" + onMain)
            } else {
                onEvent("didSignIn", "error \((error as NSError).domain) \(code)" + onMain)
            }
            return
        }
        lastUser = user
        let userId = user.userID ?? "-"
        let fullName = user.profile.name ?? "-"
        let email = user.profile.email ?? "-"
        let hasIdToken = user.authentication.idToken != nil
        onEvent("didSignIn", "\(userId) \(fullName) <\(email)> idToken=\(hasIdToken)" + onMain)
    }

    func sign(_ signIn: GIDSignIn!, didDisconnectWith user: GIDGoogleUser!, withError error: Error!) {
        onEvent("didDisconnect", "\(user?.userID ?? "-") error=\(error == nil ? "nil" : "set")")
    }
}
