// googlesignin-sample: a Google Sign-In 5 app, unchanged but for `import GoogleSignInCompat`,
// run against the embedded LocalProvider instead of Google.
import Dispatch
import Foundation
import GoogleSignInCompat
import SessionTesting

let provider = try LocalProvider()
let sessionDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("googlesignin-sample-\(getpid())")

final class AppDelegate: NSObject, GIDSignInDelegate {
    func start() {
        GIDSignIn.sharedInstance().clientID = "session-demo"
        GIDSignIn.sharedInstance().delegate = self
        GIDSignIn.sharedInstance().presentingViewController = self
        // What this port adds: the provider, the redirect, the agent and where the session lives.
        GIDSignIn.sharedInstance().issuer = provider.issuer
        GIDSignIn.sharedInstance().redirectURI = URL(string: "com.example.sessiondemo:/callback")
        GIDSignIn.sharedInstance().authorizationAgent = HeadlessUserAgent()
        GIDSignIn.sharedInstance().storeDirectory = sessionDirectory
        print("1. previous sign-in: \(GIDSignIn.sharedInstance().hasPreviousSignIn())")
        GIDSignIn.sharedInstance().signIn()
    }

    func sign(_ signIn: GIDSignIn!, didSignInFor user: GIDGoogleUser!, withError error: Error!) {
        if let error = error {
            print("2. sign-in failed: \(error.localizedDescription)")
            finish(1)
            return
        }
        print("2. signed in as \(user.profile.name ?? "-") <\(user.profile.email ?? "-")>, user ID \(user.userID ?? "-")")
        user.authentication.refreshTokens { authentication, error in
            print("3. tokens refreshed: \(error == nil && authentication?.accessToken != nil)")
            GIDSignIn.sharedInstance().disconnect()
        }
    }

    func sign(_ signIn: GIDSignIn!, didDisconnectWith user: GIDGoogleUser!, withError error: Error!) {
        print("4. disconnected\(error == nil ? "" : " with an error"); previous sign-in: \(signIn.hasPreviousSignIn())")
        finish(error == nil ? 0 : 1)
    }

    private func finish(_ code: Int32) {
        provider.stop()
        try? FileManager.default.removeItem(at: sessionDirectory)
        exit(code)
    }
}

let appDelegate = AppDelegate()
appDelegate.start()
dispatchMain()
