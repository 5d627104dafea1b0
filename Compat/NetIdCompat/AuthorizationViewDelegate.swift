/// netID's public protocol for the receiver of its authorization layer's actions;
/// ``NetIdService`` conforms, as netID's does. The view controller becomes a
/// ``NetIdPresentationAnchor`` where there is no UIKit.
public protocol AuthorizationViewDelegate: AnyObject {
    /// The user closed the layer.
    func didTapDismiss()
    /// The user chose a way to sign in: an account-provider app's universal link, or nil for the web.
    func didTapContinue(universalLink: String?, presentingViewController: NetIdPresentationAnchor, authFlow: NetIdAuthFlow)
}
