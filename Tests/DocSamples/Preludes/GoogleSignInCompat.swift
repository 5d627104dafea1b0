// The context the fragments of MigratingFromGoogleSignIn.md run in (see NetIdCompat.swift).
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GoogleSignInCompat
import SessionCore
import SessionFacade
import SessionLoopback


// The app's own helpers the fragments call.
func send(_ token: String?) {}

final class Harness: NSObject, GIDSignInDelegate, SessionServiceDelegate {
    let signIn = GIDSignIn.sharedInstance()
    let anchor: GIDPresentationAnchor = NSObject()
    let service = SessionService.shared
    let clientID = "c", redirect = URL(string: "com.example:/cb")!
    let configuration = try! SessionConfiguration(issuer: URL(string: "https://a.example")!, clientID: "c", redirectURI: URL(string: "com.example:/cb")!)
    let client = SessionClient(configuration: try! SessionConfiguration(issuer: URL(string: "https://a.example")!, clientID: "c", redirectURI: URL(string: "com.example:/cb")!))
    let agent: AuthorizationAgent = LoopbackBrowserAgent()
    let url = URL(string: "com.example:/cb?code=1")!
    let apiURL = URL(string: "https://api.example.com/me")!
    func sign(_ signIn: GIDSignIn, didSignInFor user: GIDGoogleUser?, withError error: Error?) {}
//FRAGMENTS
}
