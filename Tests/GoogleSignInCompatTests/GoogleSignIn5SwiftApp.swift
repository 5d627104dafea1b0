// A Google Sign-In 5.x app as Swift code writes it: every member of GIDSignIn, GIDGoogleUser,
// GIDAuthentication, GIDProfileData and GIDSignInButton's enums by the name Swift's importer gives
// it, the delegate in 5.x's nullability-audited form, subclasses overriding what apps override in
// test doubles, and `handle(_:)`'s result unused. This file compiles twice: here against
// GoogleSignInCompat (Swift 5 mode, warnings are errors in CI), and in Tests/ImportedNames/run.sh
// against a transcription of 5.x's Objective-C headers, where only the importer names exist.
// The App* types are Foundation's here and the headers' classes there (AppTypes.swift).
#if canImport(GoogleSignInCompat)
import Foundation
import GoogleSignInCompat
#endif

final class GoogleSignIn5SwiftApp: NSObject, GIDSignInDelegate {
    let signIn: GIDSignIn
    private let onEvent: (String, String) -> Void

    init(signIn: GIDSignIn, onEvent: @escaping (String, String) -> Void) {
        self.signIn = signIn
        self.onEvent = onEvent
    }

    func configure(clientID: AppString, scopes: AppStringArray, presentingFrom viewController: AppViewController) {
        signIn.clientID = clientID
        signIn.scopes = scopes
        signIn.delegate = self
        signIn.presentingViewController = viewController
        signIn.shouldFetchBasicProfile = true
        signIn.loginHint = nil
        signIn.serverClientID = nil
        signIn.openIDRealm = nil
        signIn.hostedDomain = nil
    }

    func launch() {
        onEvent("hasPreviousSignIn", "\(signIn.hasPreviousSignIn())")
        signIn.restorePreviousSignIn()
    }

    func signInTapped() { signIn.signIn() }
    func signOutTapped() { signIn.signOut() }
    func disconnectTapped() { signIn.disconnect() }

    func open(_ url: AppURL) {
        // An app that does not care whether the URL was the sign-in's ignores the result.
        signIn.handle(url)
    }

    func useFreshTokens() {
        signIn.currentUser?.authentication.do { authentication, error in
            _ = authentication.accessToken
            self.onEvent("freshTokens", error == nil ? "ok" : "error")
        }
    }

    func authorizer() -> GTMFetcherAuthorizationProtocol? {
        signIn.currentUser?.authentication.fetcherAuthorizer()
    }

    func describe(_ user: GIDGoogleUser) -> String {
        let profile = user.profile
        _ = (user.authentication.clientID, user.authentication.accessTokenExpirationDate, user.authentication.refreshToken,
             user.authentication.idTokenExpirationDate, user.grantedScopes, user.hostedDomain, user.serverAuthCode)
        _ = (profile?.givenName, profile?.familyName, profile?.imageURL(withDimension: 120))
        let hasIDToken = user.authentication.idToken != nil
        return "\(text(user.userID)) \(profile.map { "\(text($0.name)) <\(text($0.email))>" } ?? "no profile")"
            + " image=\(profile?.hasImage == true) idToken=\(hasIDToken)"
    }

    func sign(_ signIn: GIDSignIn, didSignInFor user: GIDGoogleUser?, withError error: AppError?) {
        if let error {
            onEvent("didSignIn", "error \(error)")
        } else if let user {
            onEvent("didSignIn", describe(user))
        }
    }

    func sign(_ signIn: GIDSignIn, didDisconnectWith user: GIDGoogleUser?, withError error: AppError?) {
        onEvent("didDisconnect", "error=\(error == nil ? "nil" : "set")")
    }

    /// 5.x's configuration value, built as an app builds it and read back into the sign-in.
    func configure(with configuration: GIDConfiguration) {
        signIn.clientID = configuration.clientID
        signIn.serverClientID = configuration.serverClientID
        signIn.loginHint = configuration.loginHint
        signIn.hostedDomain = configuration.hostedDomain
        signIn.openIDRealm = configuration.openIDRealm
    }

    static func configuration(clientID: AppString, server: AppString?) -> [GIDConfiguration] {
        [GIDConfiguration(clientID: clientID), GIDConfiguration(clientID: clientID, serverClientID: server),
         GIDConfiguration(clientID: clientID, serverClientID: server, loginHint: nil, hostedDomain: nil, openIDRealm: nil)]
    }

    static func errorCodes() -> [GIDSignInErrorCode] {
        [.unknown, .keychain, .hasNoAuthInKeychain, .canceled, .EMM]
    }

    static func buttonLooks() -> (GIDSignInButtonStyle, GIDSignInButtonColorScheme) {
        (.iconOnly, .light)
    }
}

/// A test double of the shared sign-in, as apps write one: it records instead of signing in.
final class RecordingSignIn: GIDSignIn {
    var calls: [String] = []
    override func signIn() { calls.append("signIn") }
    override func signOut() { calls.append("signOut") }
    override func hasPreviousSignIn() -> Bool { calls.append("hasPreviousSignIn"); return false }
    override func handle(_ url: AppURL) -> Bool { calls.append("handle"); return true }
}

/// A test double of a signed-in user and its tokens.
final class FakeUser: GIDGoogleUser {
    override var userID: AppString? { fakeUserID }
    override var authentication: GIDAuthentication { FakeAuthentication() }
    let fakeUserID: AppString?
    init(userID: AppString?) {
        fakeUserID = userID
        super.init()
    }
    required init?(coder: NSCoder) { nil }
}

final class FakeAuthentication: GIDAuthentication {
    override var accessToken: AppString { fakeAccessToken }
    override func `do`(freshTokens action: @escaping (GIDAuthentication, AppError?) -> Void) { action(self, nil) }
}
