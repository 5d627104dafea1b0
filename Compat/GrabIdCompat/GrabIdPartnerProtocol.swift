import Foundation
import SessionFacade

/// What `login` presents from: a view controller with UIKit, any object without.
public typealias GrabIdPresentationAnchor = PresentationAnchor

/// GrabID's partner API. Every completion is called exactly once, on the partner's callback
/// queue (the main queue by default).
public protocol GrabIdPartnerProtocol: AnyObject {
    /// The shared partner.
    static func sharedInstance() -> GrabIdPartnerProtocol?
    /// Builds a login session from the partner's `GrabIdPartnerSDK` settings.
    func loadLoginSession(completion: @escaping (LoginSession?, GrabIdPartnerError?) -> Void)
    /// Signs in: at once when a stored session is still usable, else by showing the login page.
    func login(loginSession: LoginSession, presentingViewController: GrabIdPresentationAnchor,
               completion: @escaping (GrabIdPartnerError?) -> Void)
    /// Completes a login with the redirect the app received.
    func exchangeToken(loginSession: LoginSession, url: URL, completion: @escaping (GrabIdPartnerError?) -> Void)
    /// What the session's ID token says.
    func getIdTokenInfo(loginSession: LoginSession, completion: @escaping (IdTokenInfo?, GrabIdPartnerError?) -> Void)
    /// Closes the login page; true when one was open.
    func loginCompleted(loginSession: LoginSession) -> Bool
    /// Closes the login page, then calls `completion`; true when one was open.
    func loginCompleted(loginSession: LoginSession, completion: (() -> Void)?) -> Bool
    /// Ends the session locally (no revocation, as in GrabID).
    func logout(loginSession: LoginSession, completion: ((GrabIdPartnerError?) -> Void)?)
    /// True when the session has an access token with an expiry still to come.
    func isValidAccessToken(loginSession: LoginSession) -> Bool
    /// True when the ID-token information has a nonce and a token ID and is within its validity.
    func isValidIdToken(idTokenInfo: IdTokenInfo) -> Bool
}
