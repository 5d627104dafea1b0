import Foundation
import SessionCore
import SessionFacade

/// The signed-in user's basic profile (from UserInfo, when `shouldFetchBasicProfile`).
public final class GIDProfileData: NSObject, NSSecureCoding, NSCopying, Sendable {
    /// `email`.
    public let email: String!
    /// The full name.
    public let name: String!
    /// `given_name`.
    public let givenName: String!
    /// `family_name`.
    public let familyName: String!
    /// Whether a profile image exists (`picture`).
    public let hasImage: Bool
    private let picture: URL?

    init(_ info: UserInfo) {
        email = info.email
        givenName = info.givenName
        familyName = info.familyName
        name = info.name ?? [info.givenName, info.familyName].compactMap { $0 }.joined(separator: " ")
        picture = info.picture
        hasImage = picture != nil
    }

    // MARK: NSSecureCoding and NSCopying, under GIDProfileData.m's keys (6.0.0)

    /// True: the profile decodes only strings and a URL.
    public static var supportsSecureCoding: Bool { true }

    /// Archives the profile: `email`, `name`, `given_name`, `family_name`, `image_url`.
    public func encode(with coder: NSCoder) {
        coder.encode(email, forKey: "email")
        coder.encode(name, forKey: "name")
        coder.encode(givenName, forKey: "given_name")
        coder.encode(familyName, forKey: "family_name")
        coder.encode(picture, forKey: "image_url")
    }

    /// Reads a profile archived by ``encode(with:)`` or by Google Sign-In (whose older archives
    /// kept the image as the string `picture`); a key the archive lacks reads as nil.
    public init?(coder: NSCoder) {
        email = coder.presentString("email")
        name = coder.presentString("name")
        givenName = coder.presentString("given_name")
        familyName = coder.presentString("family_name")
        let imageURL = coder.containsValue(forKey: "image_url") ? coder.decodeObject(of: NSURL.self, forKey: "image_url") as URL? : nil
        picture = imageURL ?? coder.presentString("picture").flatMap(URL.init(string:))
        hasImage = picture != nil
        super.init()
    }

    /// The profile itself: it never changes.
    public func copy(with zone: NSZone? = nil) -> Any { self }

    /// The profile image URL; the size hint is passed on as Google's `sz` parameter.
    public func imageURL(withDimension dimension: UInt) -> URL! {
        guard let picture, var components = URLComponents(url: picture, resolvingAgainstBaseURL: false) else { return nil }
        components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "sz", value: String(dimension))]
        return components.url
    }
}

/// What ``GIDAuthentication/getTokensWithHandler(_:)`` and ``GIDAuthentication/refreshTokensWithHandler(_:)`` call back with.
public typealias GIDAuthenticationHandler = (GIDAuthentication?, Error?) -> Void

/// What Google Sign-In 4.x's access-token calls call back with.
public typealias GIDAccessTokenHandler = (String?, Error?) -> Void

/// The user's tokens, which it can refresh.
public final class GIDAuthentication: NSObject, NSSecureCoding, Sendable {
    private let tokens: Locked<SessionTokens>
    /// The service that refreshes: the sign-in's; for a copy read from an archive, the shared
    /// ``GIDSignIn``'s (asked only when tokens are asked for).
    private let service: @Sendable () -> SessionService
    /// The user the tokens belong to, which a refreshed copy must still name.
    private let subject: String?

    /// The client ID.
    public let clientID: String!

    init(tokens: SessionTokens, clientID: String, service: SessionService) {
        self.tokens = Locked(tokens)
        self.clientID = clientID
        self.service = { service }
        subject = tokens.subject
    }

    // MARK: NSSecureCoding

    /// True: an authentication decodes only a dictionary of strings, a date and an array.
    public static var supportsSecureCoding: Bool { true }

    /// Archives the tokens under `authState`, GIDAuthentication.m's key (6.0.0 line 45), as a
    /// dictionary with the token response's parameter names (Google's archive holds AppAuth's
    /// `OIDAuthState` there, which this one does not write or read).
    public func encode(with coder: NSCoder) {
        let tokens = tokens.value
        var state: [String: Any] = ["access_token": tokens.accessToken, "scope": tokens.scopes.joined(separator: " ")]
        state["refresh_token"] = tokens.refreshToken
        state["id_token"] = tokens.idToken
        state["expires_in"] = tokens.expiresAt
        state["token_type"] = tokens.tokenType
        state["client_id"] = clientID
        coder.encode(state as NSDictionary, forKey: "authState")
    }

    /// Reads an authentication archived by ``encode(with:)``. Its tokens are the archived ones
    /// until tokens are asked for; then they come from the shared ``GIDSignIn``'s session, which
    /// must still be the same user's (an archived refresh token is never sent on its own: the
    /// live session may have rotated it, and a provider revokes the grant on reuse).
    public init?(coder: NSCoder) {
        guard let state = coder.decodeObject(of: [NSDictionary.self, NSString.self, NSDate.self], forKey: "authState") as? [String: Any],
              let accessToken = state["access_token"] as? String else { return nil }
        let idToken = state["id_token"] as? String
        let subject = SessionTokens.claims(of: idToken)["sub"]?.stringValue
        tokens = Locked(SessionTokens(accessToken: accessToken, refreshToken: state["refresh_token"] as? String, idToken: idToken,
                                      expiresAt: state["expires_in"] as? Date,
                                      scopes: (state["scope"] as? String)?.split(separator: " ").map(String.init) ?? [],
                                      subject: subject, tokenType: state["token_type"] as? String))
        clientID = state["client_id"] as? String
        service = { GIDSignIn.shared.sessionService() }
        self.subject = subject
        super.init()
    }

    /// The access token.
    public var accessToken: String! { tokens.value.accessToken }
    /// The refresh token.
    public var refreshToken: String! { tokens.value.refreshToken }
    /// The ID token.
    public var idToken: String! { tokens.value.idToken }
    /// When the access token expires.
    public var accessTokenExpirationDate: Date! { tokens.value.expiresAt }
    /// When the ID token expires.
    public var idTokenExpirationDate: Date! {
        tokens.value.idTokenExpiresAt
    }

    /// Calls `handler` with tokens that are valid for at least the refresh leeway (refreshing
    /// first when needed), on the sign-in's callback queue.
    public func getTokensWithHandler(_ handler: @escaping GIDAuthenticationHandler) {
        let callback = CallbackQueueBound(handler)
        service().currentTokens { [self] result in finish(result, callback) }
    }

    /// Refreshes the tokens now and calls `handler` on the sign-in's callback queue.
    public func refreshTokensWithHandler(_ handler: @escaping GIDAuthenticationHandler) {
        let callback = CallbackQueueBound(handler)
        service().refreshTokens { [self] result in finish(result, callback) }
    }

    /// Google Sign-In 4.x's access-token call (deprecated there in favour of
    /// ``getTokensWithHandler(_:)``): the access token, refreshed first when needed.
    public func getAccessTokenWithHandler(_ handler: @escaping GIDAccessTokenHandler) {
        getTokensWithHandler { authentication, error in handler(authentication?.accessToken, error) }
    }

    /// Google Sign-In 4.x's refresh call (deprecated there in favour of
    /// ``refreshTokensWithHandler(_:)``): refreshes now and gives the new access token.
    public func refreshAccessTokenWithHandler(_ handler: @escaping GIDAccessTokenHandler) {
        refreshTokensWithHandler { authentication, error in handler(authentication?.accessToken, error) }
    }

    private func finish(_ result: Result<SessionTokens, SessionError>, _ callback: CallbackQueueBound<(GIDAuthentication?, Error?) -> Void>) {
        switch result {
        case .success(let fresh) where subject != nil && fresh.subject != subject:
            callback.value(nil, GIDSignInErrors.make(SessionError(.notAuthenticated, process: .authentication,
                                                                  message: "the signed-in user is not the one this authentication belongs to")))
        case .success(let fresh):
            tokens.value = fresh
            callback.value(self, nil)
        case .failure(let error):
            callback.value(nil, GIDSignInErrors.make(error))
        }
    }
}

/// A signed-in user.
public final class GIDGoogleUser: NSObject, NSSecureCoding, @unchecked Sendable {
    // @unchecked Sendable: every stored property is a `let`; `grantedScopes` is `[Any]`, as
    // GIDGoogleUser declares it, and holds only the granted scopes' strings.
    /// The user's ID (`sub`).
    public let userID: String!
    /// The basic profile, when `shouldFetchBasicProfile` was set.
    public let profile: GIDProfileData!
    /// The tokens.
    public let authentication: GIDAuthentication!
    /// The scopes granted.
    public let grantedScopes: [Any]!
    /// Google Sign-In 4.x's name for ``grantedScopes`` (deprecated there since 4.2).
    public var accessibleScopes: [Any]! { grantedScopes }
    /// The hosted domain (`hd` claim), if any.
    public let hostedDomain: String!
    /// The one-time code for the app's server: the token response's `server_code`, which the
    /// provider sends when ``GIDSignIn/serverClientID`` is set; nil otherwise.
    public let serverAuthCode: String!

    init(tokens: SessionTokens, profile: GIDProfileData?, authentication: GIDAuthentication) {
        userID = tokens.subject
        self.profile = profile
        self.authentication = authentication
        grantedScopes = tokens.scopes
        hostedDomain = tokens.idTokenClaims["hd"]?.stringValue
        serverAuthCode = tokens.additionalParameters["server_code"]
    }

    // MARK: NSSecureCoding, under GIDGoogleUser.m's keys (6.0.0 lines 32–37)

    /// True: a user decodes only its authentication, profile, strings and an array of strings.
    public static var supportsSecureCoding: Bool { true }

    /// Archives the user: `authentication`, `grantedScopes`, `userID`, `serverAuthCode`,
    /// `profileData`, `hostedDomain`.
    public func encode(with coder: NSCoder) {
        coder.encode(authentication, forKey: "authentication")
        coder.encode(grantedScopes?.compactMap { $0 as? String } as NSArray?, forKey: "grantedScopes")
        coder.encode(userID, forKey: "userID")
        coder.encode(serverAuthCode, forKey: "serverAuthCode")
        coder.encode(profile, forKey: "profileData")
        coder.encode(hostedDomain, forKey: "hostedDomain")
    }

    /// Reads a user archived by ``encode(with:)``; nil without its authentication.
    public init?(coder: NSCoder) {
        guard let authentication = coder.decodeObject(of: GIDAuthentication.self, forKey: "authentication") else { return nil }
        self.authentication = authentication
        grantedScopes = coder.containsValue(forKey: "grantedScopes")
            ? (coder.decodeObject(of: [NSArray.self, NSString.self], forKey: "grantedScopes") as? [String]) : nil
        userID = coder.presentString("userID")
        serverAuthCode = coder.presentString("serverAuthCode")
        profile = coder.containsValue(forKey: "profileData") ? coder.decodeObject(of: GIDProfileData.self, forKey: "profileData") : nil
        hostedDomain = coder.presentString("hostedDomain")
        super.init()
    }
}

private extension NSCoder {
    /// The string under `key`; nil when the archive lacks the key (an older or partial archive).
    func presentString(_ key: String) -> String? {
        containsValue(forKey: key) ? decodeObject(of: NSString.self, forKey: key) as String? : nil
    }
}
