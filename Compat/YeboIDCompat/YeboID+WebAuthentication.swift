#if canImport(AuthenticationServices) && (canImport(UIKit) || canImport(AppKit))
import AuthenticationServices
import SessionWebAuthentication

extension YeboID {
    /// Signs in through `ASWebAuthenticationSession`, shown from the window `presentationContext`
    /// provides, as YeboID for Swift does; errors as ``signIn(agent:)``.
    ///
    /// Never run: type-checked in CI against declarations transcribed from Apple's documentation.
    @MainActor
    public func signIn(presentationContext: ASWebAuthenticationPresentationContextProviding) async throws -> YeboIDTokens {
        let agent = WebAuthenticationAgent(presentationContext: WebAuthenticationAgent.PresentationContext(presentationContext))
        return try await signIn(agent: agent)
    }
}
#endif
