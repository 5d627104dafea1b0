// The context the fragments of MigratingFromGrabID.md run in (see NetIdCompat.swift).
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import GrabIdCompat
import SessionCore
import SessionFacade
import SessionLoopback


// The app's own helpers the fragments call.
func openInBrowser(_ url: URL) {}
func send(_ token: String?) {}
func show(_ text: String?) {}

final class Harness {
    let partner = GrabIdPartner.sharedInstance() as? GrabIdPartner
    let session = LoginSession(clientId: "c", redirectUrl: URL(string: "com.example:/cb")!, scope: "openid", serviceDiscoveryUrl: "https://a.example")
    var loginSession: LoginSession?
    let anchor: GrabIdPresentationAnchor = NSObject()
    let service = SessionService.shared
    let issuer = URL(string: "https://a.example")!, clientID = "c", redirect = URL(string: "com.example:/cb")!, hint = ""
    let configuration = try! SessionConfiguration(issuer: URL(string: "https://a.example")!, clientID: "c", redirectURI: URL(string: "com.example:/cb")!)
    let client = SessionClient(configuration: try! SessionConfiguration(issuer: URL(string: "https://a.example")!, clientID: "c", redirectURI: URL(string: "com.example:/cb")!))
    let url = URL(string: "com.example:/cb?code=1")!
    let apiURL = URL(string: "https://api.example.com/me")!
//FRAGMENTS
}
