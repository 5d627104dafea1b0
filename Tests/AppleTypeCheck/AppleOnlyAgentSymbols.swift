// Compiled into SessionWebAuthentication by the Apple type-check only, for the reason
// AppleOnlySymbols.swift gives: every Apple-only symbol of the module is named here.
import AuthenticationServices
import SessionCore

@MainActor
private func appleOnlyAgentSymbolsAreCompiled() {
    let _: any AuthorizationAgent = WebAuthenticationAgent(prefersEphemeralWebBrowserSession: true)
    let _: ASPresentationAnchor? = PresentationAnchors.keyWindow()
}
