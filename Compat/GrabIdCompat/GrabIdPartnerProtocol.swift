import Foundation
import SessionFacade

/// What `login` presents from: a view controller with UIKit, any object without.
public typealias GrabIdPresentationAnchor = PresentationAnchor

/// The GrabID partner API. Every completion is called exactly once, on the partner's callback
/// queue (the main queue by default).
public protocol GrabIdPartnerProtocol: AnyObject {
    /// The shared partner.
    static func sharedInstance() -> GrabIdPartnerProtocol?
    /// Builds a login session from the partner configuration (see ``GrabIdPartner/configuration``).
    func loadLoginSession(completion: @escaping (LoginSession?, GrabIdPartnerError?) -> Void)
    /// Signs in: at once when a cached session is still usable, else through the agent.
    func login(loginSession: LoginSession, presentingViewController: GrabIdPresentationAnchor,
               completion: @escaping (GrabIdPartnerError?) -> Void)
    /// Completes a login with the redirect the app received.
    func exchangeToken(loginSession: LoginSession, url: URL, completion: @escaping (GrabIdPartnerError?) -> Void)
    /// The ID token's contents.
    func getIdTokenInfo(loginSession: LoginSession, completion: @escaping (IdTokenInfo?, GrabIdPartnerError?) -> Void)
    /// Closes the login UI; there is none here, so it returns true.
    func loginCompleted(loginSession: LoginSession) -> Bool
    /// Closes the login UI and calls `completion`; returns true.
    func loginCompleted(loginSession: LoginSession, completion: (() -> Void)?) -> Bool
    /// Ends the session locally (no revocation, as in GrabID).
    func logout(loginSession: LoginSession, completion: ((GrabIdPartnerError?) -> Void)?)
    /// True when the session has an access token that has not expired.
    func isValidAccessToken(loginSession: LoginSession) -> Bool
    /// True when now lies between the token's `nbf` and `exp`.
    func isValidIdToken(idTokenInfo: IdTokenInfo) -> Bool
}
