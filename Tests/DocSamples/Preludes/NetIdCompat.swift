// The context the fragments of MigratingFromNetID.md run in: a listener of both sides, and the
// values the fragments name. Tests/DocSamples/check.sh puts each fragment in a method of its own
// (what follows "// Step 3" in an async one), compiled in Swift 5 mode as a legacy app is.
import Foundation
import NetIdCompat
import SessionFacade
import SessionCore
import SessionPermissions
import SessionWebAuthentication
import SessionLoopback

final class Harness: NetIdServiceDelegate, SessionServiceDelegate {
    let clientID = "c", redirect = "com.example:/cb", claims: String? = nil
    let configuration = try! SessionConfiguration(issuer: URL(string: "https://a.example")!, clientID: "c", redirectURI: URL(string: "com.example:/cb")!)
    let agent: AuthorizationAgent = LoopbackBrowserAgent()
    let url = URL(string: "com.example:/cb?code=1")!
    let scopes = ["openid"]
    let tcString = "x"
    let service = SessionService.shared
    let client = SessionClient(configuration: try! SessionConfiguration(issuer: URL(string: "https://a.example")!, clientID: "c", redirectURI: URL(string: "com.example:/cb")!))
    func didFinishInitializationWithError(_ error: NetIdError?) {}
    func didFinishInitializationWithError(_ error: SessionError?) {}
    func didFinishAuthentication(_ accessToken: String) {}
    func didFinishAuthenticationWithError(_ error: NetIdError?) {}
    func didFinishAuthenticationWithError(_ error: SessionError) {}
    func didCancelAuthentication(_ error: NetIdError) {}
    func didCancelAuthentication(_ error: SessionError) {}
    func didFetchUserInfo(_ userInfo: NetIdCompat.UserInfo) {}
    func didFetchUserInfo(_ userInfo: SessionCore.UserInfo) {}
    func didFetchUserInfoWithError(_ error: NetIdError) {}
    func didFetchUserInfoWithError(_ error: SessionError) {}
    func didFetchPermissions(_ permissions: NetIdCompat.PermissionReadResponse) {}
    func didFetchPermissions(_ permissions: SessionPermissions.PermissionReadResponse) {}
    func didFetchPermissionsWithError(_ status: PermissionResponseStatus, _ error: NetIdError) {}
    func didFetchPermissionsWithError(_ status: PermissionCenterStatus, _ error: SessionError) {}
    func didUpdatePermission(_ subjectIdentifiers: NetIdCompat.SubjectIdentifiers) {}
    func didUpdatePermissionWithError(_ status: PermissionResponseStatus, _ error: NetIdError) {}
    func didEndSession() {}
    func didEncounterNetworkError(_ error: NetIdError) {}
//FRAGMENTS
}
