import Foundation
import SessionCore
import SessionFacade

/// What Google Sign-In 4.x's ``GIDAuthentication/getTokensWithHandler(_:)`` and
/// ``GIDAuthentication/refreshTokens(handler:)`` call back with.
public typealias GIDAuthenticationHandler = (GIDAuthentication?, Error?) -> Void

/// What Google Sign-In 5.x's ``GIDAuthentication/do(freshTokens:)`` calls back with (its header
/// declares the authentication non-null).
public typealias GIDAuthenticationAction = (GIDAuthentication, Error?) -> Void

/// What Google Sign-In 4.x's access-token calls call back with.
public typealias GIDAccessTokenHandler = (String?, Error?) -> Void

/// The user's tokens, which it can refresh, under the names Swift's importer gives Google Sign-In's
/// selectors (`refreshTokensWithHandler:` is `refreshTokens(handler:)`; the selector spellings
/// are unavailable, as they are with Google's SDK).
///
/// `open`, as every class Swift imports from Objective-C is: a test double may subclass it and
/// override its members; ``init()`` makes one without tokens for that.
///
/// Its tokens are behind a lock: it may be used from any thread.
open class GIDAuthentication: NSObject, NSSecureCoding {
    private let tokens: Locked<SessionTokens?>
    /// The service that refreshes: the sign-in's; for a copy read from an archive or made by
    /// ``init()``, the shared ``GIDSignIn``'s (asked only when tokens are asked for).
    private let service: @Sendable () -> SessionService
    /// The user the tokens belong to, which a refreshed copy must still name.
    let subject: String?
    /// Whether the sign-in this authentication came from has its user signed in now.
    private let userIsSignedIn: @Sendable (_ subject: String?) -> Bool
    private let storedClientID: String?

    /// The client ID.
    open var clientID: String! { storedClientID }

    init(tokens: SessionTokens, clientID: String, service: SessionService, signIn: GIDSignInCore) {
        self.tokens = Locked(tokens)
        storedClientID = clientID
        self.service = { service }
        subject = tokens.subject
        userIsSignedIn = { [weak signIn] subject in signIn?.isSignedIn(subject: subject) ?? false }
        super.init()
    }

    /// An authentication without tokens, for a subclass or a test double; asked for tokens, it
    /// gets the shared ``GIDSignIn``'s.
    override public init() {
        tokens = Locked(nil)
        storedClientID = nil
        service = { GIDSignIn.shared.core.sessionService() }
        subject = nil
        userIsSignedIn = { GIDSignIn.shared.core.isSignedIn(subject: $0) }
        super.init()
    }

    // MARK: NSSecureCoding

    /// True: an authentication decodes only a dictionary of strings, a date and an array.
    public static var supportsSecureCoding: Bool { true }

    /// Archives the tokens under `authState`, GIDAuthentication.m's key (6.0.0 line 45), as a
    /// dictionary with the token response's parameter names (Google's archive holds AppAuth's
    /// `OIDAuthState` there, which this one does not write or read).
    open func encode(with coder: NSCoder) {
        guard let tokens = tokens.value else { return }
        var state: [String: Any] = ["access_token": tokens.accessToken, "scope": tokens.scopes.joined(separator: " ")]
        state["refresh_token"] = tokens.refreshToken
        state["id_token"] = tokens.idToken
        state["expires_in"] = tokens.expiresAt
        state["token_type"] = tokens.tokenType
        state["client_id"] = storedClientID
        coder.encode(state as NSDictionary, forKey: "authState")
    }

    /// Reads an authentication archived by ``encode(with:)``. Its tokens are the archived ones
    /// until tokens are asked for; then they come from the shared ``GIDSignIn``'s session, which
    /// must still be the same user's (an archived refresh token is never sent on its own: the
    /// live session may have rotated it, and a provider revokes the grant on reuse).
    public required init?(coder: NSCoder) {
        guard let state = coder.decodeObject(of: [NSDictionary.self, NSString.self, NSDate.self], forKey: "authState") as? [String: Any],
              let accessToken = state["access_token"] as? String else { return nil }
        let idToken = state["id_token"] as? String
        let subject = SessionTokens.claims(of: idToken)["sub"]?.stringValue
        tokens = Locked(SessionTokens(accessToken: accessToken, refreshToken: state["refresh_token"] as? String, idToken: idToken,
                                      expiresAt: state["expires_in"] as? Date,
                                      scopes: (state["scope"] as? String)?.split(separator: " ").map(String.init) ?? [],
                                      subject: subject, tokenType: state["token_type"] as? String))
        storedClientID = state["client_id"] as? String
        service = { GIDSignIn.shared.core.sessionService() }
        self.subject = subject
        userIsSignedIn = { GIDSignIn.shared.core.isSignedIn(subject: $0) }
        super.init()
    }

    /// The access token.
    open var accessToken: String! { tokens.value?.accessToken }
    /// The refresh token.
    open var refreshToken: String! { tokens.value?.refreshToken }
    /// The ID token.
    open var idToken: String! { tokens.value?.idToken }
    /// When the access token expires.
    open var accessTokenExpirationDate: Date! { tokens.value?.expiresAt }
    /// When the ID token expires.
    open var idTokenExpirationDate: Date! { tokens.value?.idTokenExpiresAt }

    /// Google Sign-In 5.x: calls `action` with tokens that are valid for at least the refresh
    /// leeway (refreshing first when needed), on the sign-in's callback queue. On failure `action`
    /// gets this authentication, its tokens as they were, and the error (Google's passed a nil its
    /// header declares impossible).
    open func `do`(freshTokens action: @escaping GIDAuthenticationAction) {
        getTokensWithHandler { [self] authentication, error in action(authentication ?? self, error) }
    }

    /// Google Sign-In 4.x: calls `handler` with tokens that are valid for at least the refresh
    /// leeway (refreshing first when needed), on the sign-in's callback queue.
    open func getTokensWithHandler(_ handler: @escaping GIDAuthenticationHandler) {
        let call = CallbackQueueBound((authentication: self, handler: handler))
        service().currentTokens { result in call.value.authentication.finish(result, call.value.handler) }
    }

    /// Google Sign-In 4.x: refreshes the tokens now and calls `handler` on the sign-in's callback queue.
    open func refreshTokens(handler: @escaping GIDAuthenticationHandler) {
        let call = CallbackQueueBound((authentication: self, handler: handler))
        service().refreshTokens { result in call.value.authentication.finish(result, call.value.handler) }
    }

    /// Google Sign-In 4.x's access-token call (deprecated there in favour of
    /// ``getTokensWithHandler(_:)``): the access token, refreshed first when needed.
    open func getAccessToken(handler: @escaping GIDAccessTokenHandler) {
        getTokensWithHandler { authentication, error in handler(authentication?.accessToken, error) }
    }

    /// Google Sign-In 4.x's refresh call (deprecated there in favour of
    /// ``refreshTokens(handler:)``): refreshes now and gives the new access token.
    open func refreshAccessToken(handler: @escaping GIDAccessTokenHandler) {
        refreshTokens { authentication, error in handler(authentication?.accessToken, error) }
    }

    /// An authorizer for requests to the user's Google APIs (or the provider's resource servers):
    /// each request it authorizes carries a fresh access token of this authentication's user,
    /// refreshed first when needed. Once that user signs out it authorizes nothing (its
    /// `canAuthorize` is false), and while another user is signed in it refuses as
    /// ``getTokensWithHandler(_:)`` does rather than lend that user's token.
    open func fetcherAuthorizer() -> GTMFetcherAuthorizationProtocol {
        GIDFetcherAuthorizer(service: service, subject: subject,
                             userEmail: { [tokens] in tokens.value?.idTokenClaims["email"]?.stringValue },
                             canAuthorize: { [tokens, subject, userIsSignedIn] in tokens.value != nil && userIsSignedIn(subject) })
    }

    /// Called on the callback queue.
    private func finish(_ result: Result<SessionTokens, SessionError>, _ handler: GIDAuthenticationHandler) {
        switch result {
        case .success(let fresh) where subject != nil && fresh.subject != subject:
            handler(nil, GIDSignInErrors.make(SessionError(.notAuthenticated, process: .authentication,
                                                           message: "the signed-in user is not the one this authentication belongs to")))
        case .success(let fresh):
            tokens.value = fresh
            handler(self, nil)
        case .failure(let error):
            handler(nil, GIDSignInErrors.make(error))
        }
    }

    // The selector spellings, which Swift's importer renames (and marks obsoleted in Swift 3).

    /// Unavailable: Swift code calls it ``refreshTokens(handler:)``.
    @available(*, unavailable, renamed: "refreshTokens(handler:)")
    public func refreshTokensWithHandler(_ handler: @escaping GIDAuthenticationHandler) { refreshTokens(handler: handler) }

    /// Unavailable: Swift code calls it ``getAccessToken(handler:)``.
    @available(*, unavailable, renamed: "getAccessToken(handler:)")
    public func getAccessTokenWithHandler(_ handler: @escaping GIDAccessTokenHandler) { getAccessToken(handler: handler) }

    /// Unavailable: Swift code calls it ``refreshAccessToken(handler:)``.
    @available(*, unavailable, renamed: "refreshAccessToken(handler:)")
    public func refreshAccessTokenWithHandler(_ handler: @escaping GIDAccessTokenHandler) { refreshAccessToken(handler: handler) }

    /// Unavailable: Swift code calls it ``do(freshTokens:)``.
    @available(*, unavailable, renamed: "do(freshTokens:)")
    public func doWithFreshTokens(_ action: @escaping GIDAuthenticationAction) { self.do(freshTokens: action) }
}
