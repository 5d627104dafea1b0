import SessionCore
import SessionWebAuthentication
#if canImport(UIKit)
import UIKit

/// What a legacy API presents its sign-in from: a view controller where UIKit exists.
public typealias PresentationAnchor = UIViewController
#else
/// What a legacy API presents its sign-in from. Without UIKit any object stands in for the view
/// controller; presenting the page is the job of an `AuthorizationAgent`.
public typealias PresentationAnchor = AnyObject
#endif

extension PlatformDefaults {
    /// The default agent for a sign-in a legacy call starts from `anchor`: with UIKit, a
    /// `WebAuthenticationAgent` shown from that view controller's window (the key window while
    /// it has none, or without an anchor); elsewhere ``PlatformDefaults/authorizationAgent``.
    /// The UIKit branch is type-checked in CI and has never run.
    public static func authorizationAgent(presentingFrom anchor: PresentationAnchor?) -> (any AuthorizationAgent)? {
        #if canImport(UIKit) && canImport(AuthenticationServices)
        guard let controller = anchor else { return authorizationAgent }
        return WebAuthenticationAgent { [weak controller] in controller?.view.window ?? PresentationAnchors.keyWindow() }
        #else
        return authorizationAgent
        #endif
    }
}
