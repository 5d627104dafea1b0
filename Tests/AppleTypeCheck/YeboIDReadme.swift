// The sign-in code of YeboID for Swift's README, with `import YeboID` changed to
// `import YeboIDCompat`: the Apple type-check compiles it in Swift 6 mode in both flavours.
import AuthenticationServices
import Foundation
import YeboIDCompat

@MainActor final class LoginCoordinator: NSObject, ASWebAuthenticationPresentationContextProviding {
    let identity: YeboID
    private let window: ASPresentationAnchor

    init(window: ASPresentationAnchor) throws {
        self.window = window
        identity = try YeboID(clientID: "YOUR_PUBLIC_CLIENT_ID",
            redirectURI: URL(string: "com.yourcompany.yourapp://oauth/callback")!)
    }
    func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor { window }
    func signIn() async throws -> String {
        _ = try await identity.signIn(presentationContext: self)
        let user = try await identity.userInfo()
        guard let sub = user["sub"] as? String else { throw YeboIDError("invalid_userinfo") }
        return sub
    }
}

@MainActor func restoreRefreshSignOut(_ coordinator: LoginCoordinator) async throws {
    if let tokens = try coordinator.identity.tokens() {
        _ = tokens.accessToken
        _ = tokens.expiresAt
    }
    let rotated = try await coordinator.identity.refresh()
    _ = rotated.grantedScopes
    try await coordinator.identity.signOut()
}
