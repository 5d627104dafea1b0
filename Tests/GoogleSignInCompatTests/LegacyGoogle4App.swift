// Written the way a Google Sign-In 4.x app is written against GIDSignIn.h (Swift 5 language mode,
// only GoogleSignInCompat imported): an app delegate that is the sign-in delegate and a view
// controller that is the UI delegate, with 4.x's names. If a signature drifts, this file stops
// compiling.
import Foundation
import GoogleSignInCompat

/// The app delegate: configures the shared sign-in, signs in silently at launch, routes URLs.
final class LegacyGoogle4AppDelegate: NSObject, GIDSignInDelegate {
    let signIn: GIDSignIn
    private let onEvent: (String, String) -> Void
    var user: GIDGoogleUser?

    init(signIn: GIDSignIn! = GIDSignIn.sharedInstance(), onEvent: @escaping (String, String) -> Void) {
        self.signIn = signIn
        self.onEvent = onEvent
    }

    func applicationDidFinishLaunching(clientID: String) {
        signIn.clientID = clientID
        signIn.delegate = self
        signIn.scopes = ["offline_access"]
        signIn.shouldFetchBasicProfile = true
        signIn.language = "de"
        signIn.hostedDomain = nil
        if signIn.hasAuthInKeychain() {
            onEvent("hasAuthInKeychain", "true")
        }
        signIn.signInSilently()
    }

    func application(open url: URL, sourceApplication: String?, annotation: Any) -> Bool {
        return signIn.handle(url, sourceApplication: sourceApplication, annotation: annotation)
    }

    func sign(_ signIn: GIDSignIn!, didSignInFor user: GIDGoogleUser!, withError error: Error!) {
        if let error = error {
            let code = (error as NSError).code
            switch GIDSignInErrorCode(rawValue: code) {
            case .some(.hasNoAuthInKeychain): onEvent("didSignIn", "hasNoAuthInKeychain")
            case .some(.noSignInHandlersInstalled): onEvent("didSignIn", "noSignInHandlersInstalled")
            case .some(.canceled): onEvent("didSignIn", "canceled")
            default: onEvent("didSignIn", "error \(code)")
            }
            return
        }
        self.user = user
        let scopes = (user.accessibleScopes as? [String])?.joined(separator: " ") ?? "-"
        onEvent("didSignIn", "\(user.userID ?? "-") scopes=\(scopes) serverAuthCode=\(user.serverAuthCode == nil ? "nil" : "set")")
    }

    func sign(_ signIn: GIDSignIn!, didDisconnectWith user: GIDGoogleUser!, withError error: Error!) {
        onEvent("didDisconnect", error == nil ? "nil" : "error")
    }

    func accessToken() {
        user?.authentication.getAccessToken { accessToken, error in
            self.onEvent("getAccessToken", accessToken != nil && error == nil ? "ok" : "error")
        }
    }

    func refreshAccessToken() {
        user?.authentication.refreshAccessToken { accessToken, error in
            self.onEvent("refreshAccessToken", accessToken != nil && error == nil ? "ok" : "error")
        }
    }
}

/// The sign-in screen: the UI delegate that shows a spinner until the sign-in is dispatched.
final class LegacyGoogle4ViewController: NSObject, GIDSignInUIDelegate {
    private let onEvent: (String, String) -> Void
    private(set) var spinning = false

    init(onEvent: @escaping (String, String) -> Void) {
        self.onEvent = onEvent
    }

    func signInTapped(_ signIn: GIDSignIn) {
        signIn.uiDelegate = self
        spinning = true
        signIn.signIn()
    }

    func sign(inWillDispatch signIn: GIDSignIn!, error: Error!) {
        spinning = false
        onEvent("signInWillDispatch", error == nil ? "nil" : "\((error as NSError).code)")
    }

    func sign(_ signIn: GIDSignIn!, present viewController: NSObject!) {
        onEvent("present", "")
    }

    func sign(_ signIn: GIDSignIn!, dismiss viewController: NSObject!) {
        onEvent("dismiss", "")
    }
}
