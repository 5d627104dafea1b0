import SessionCore

extension PlatformDefaults {
    /// The default agent that shows the provider's page: ``WebAuthenticationAgent`` on Apple
    /// platforms; nil elsewhere, where the app brings its own (SessionLoopback's
    /// `LoopbackBrowserAgent` for a desktop browser, or a redirect handed in from outside).
    public static var authorizationAgent: (any AuthorizationAgent)? {
        #if canImport(AuthenticationServices) && (canImport(UIKit) || canImport(AppKit))
        WebAuthenticationAgent()
        #else
        nil
        #endif
    }
}
