import Foundation
import SessionFacade

/// What `signIn` presents from: a view controller with UIKit, any object without.
public typealias GIDPresentationAnchor = PresentationAnchor

/// Google Sign-In's delegate (4.x and 5.x). Each method comes in the two forms Swift code writes
/// it in: 5.x's header is nullability-audited (`GIDSignIn`, `GIDGoogleUser?`, `Error?`), 4.x's is
/// not (`GIDSignIn!`, ...), and Google's Objective-C protocol accepts either. Implement one form;
/// the 5.x form is the one called, and by default it calls the 4.x form.
public protocol GIDSignInDelegate: NSObjectProtocol {
    /// A sign-in (interactive or restored) finished: a user, or an error in `kGIDSignInErrorDomain`.
    func sign(_ signIn: GIDSignIn, didSignInFor user: GIDGoogleUser?, withError error: Error?)
    /// The same, as a 4.x app writes it.
    func sign(_ signIn: GIDSignIn!, didSignInFor user: GIDGoogleUser!, withError error: Error!)
    /// `disconnect` finished. Optional: the default does nothing.
    func sign(_ signIn: GIDSignIn, didDisconnectWith user: GIDGoogleUser?, withError error: Error?)
    /// The same, as a 4.x app writes it. Optional: the default does nothing.
    func sign(_ signIn: GIDSignIn!, didDisconnectWith user: GIDGoogleUser!, withError error: Error!)
}

extension GIDSignInDelegate {
    /// Calls the 4.x form.
    public func sign(_ signIn: GIDSignIn, didSignInFor user: GIDGoogleUser?, withError error: Error?) {
        sign(Optional(signIn), didSignInFor: user, withError: error)
    }
    /// Does nothing: a delegate implements this or the 5.x form.
    public func sign(_ signIn: GIDSignIn!, didSignInFor user: GIDGoogleUser!, withError error: Error!) {}
    /// Calls the 4.x form.
    public func sign(_ signIn: GIDSignIn, didDisconnectWith user: GIDGoogleUser?, withError error: Error?) {
        sign(Optional(signIn), didDisconnectWith: user, withError: error)
    }
    /// Does nothing.
    public func sign(_ signIn: GIDSignIn!, didDisconnectWith user: GIDGoogleUser!, withError error: Error!) {}
}

/// Google Sign-In 4.x's UI delegate, which 5.0 replaced by `presentingViewController`. Every
/// method is optional.
public protocol GIDSignInUIDelegate: NSObjectProtocol {
    /// `signIn` has chosen how to proceed (the page is being shown, or `error` says why it
    /// cannot be): hide a spinner here.
    func sign(inWillDispatch signIn: GIDSignIn!, error: Error!)
    /// Never called here: no view controller is presented (as with 4.1.1 and later on iOS 11).
    func sign(_ signIn: GIDSignIn!, present viewController: GIDPresentationAnchor!)
    /// Never called here, as ``sign(_:present:)``.
    func sign(_ signIn: GIDSignIn!, dismiss viewController: GIDPresentationAnchor!)
}

extension GIDSignInUIDelegate {
    /// Does nothing.
    public func sign(inWillDispatch signIn: GIDSignIn!, error: Error!) {}
    /// Does nothing.
    public func sign(_ signIn: GIDSignIn!, present viewController: GIDPresentationAnchor!) {}
    /// Does nothing.
    public func sign(_ signIn: GIDSignIn!, dismiss viewController: GIDPresentationAnchor!) {}
}
