import Foundation
import SessionCore

/// A signed-in user.
///
/// `open`, as every class Swift imports from Objective-C is: a test double may subclass it and
/// override its members; ``init()`` makes an empty user for that.
///
/// Immutable (every stored property is a `let`): it may be read from any thread.
open class GIDGoogleUser: NSObject, NSSecureCoding {
    private let storedUserID: String?
    private let storedProfile: GIDProfileData?
    private let storedAuthentication: GIDAuthentication?
    private let storedGrantedScopes: [Any]?
    private let storedHostedDomain: String?
    private let storedServerAuthCode: String?

    /// The user's ID (`sub`).
    open var userID: String! { storedUserID }
    /// The basic profile, when `shouldFetchBasicProfile` was set.
    open var profile: GIDProfileData! { storedProfile }
    /// The tokens.
    open var authentication: GIDAuthentication! { storedAuthentication }
    /// The scopes granted.
    open var grantedScopes: [Any]! { storedGrantedScopes }
    /// Google Sign-In 4.x's name for ``grantedScopes`` (deprecated there since 4.2).
    open var accessibleScopes: [Any]! { grantedScopes }
    /// The hosted domain (`hd` claim), if any.
    open var hostedDomain: String! { storedHostedDomain }
    /// The one-time code for the app's server: the token response's `server_code`, which the
    /// provider sends when ``GIDSignIn/serverClientID`` is set; nil otherwise.
    open var serverAuthCode: String! { storedServerAuthCode }

    init(tokens: SessionTokens, profile: GIDProfileData?, authentication: GIDAuthentication) {
        storedUserID = tokens.subject
        storedProfile = profile
        storedAuthentication = authentication
        storedGrantedScopes = tokens.scopes
        storedHostedDomain = tokens.idTokenClaims["hd"]?.stringValue
        storedServerAuthCode = tokens.additionalParameters["server_code"]
        super.init()
    }

    /// An empty user (every member nil), for a subclass or a test double.
    override public init() {
        (storedUserID, storedProfile, storedAuthentication) = (nil, nil, nil)
        (storedGrantedScopes, storedHostedDomain, storedServerAuthCode) = (nil, nil, nil)
        super.init()
    }

    // MARK: NSSecureCoding, under GIDGoogleUser.m's keys (6.0.0 lines 32–37)

    /// True: a user decodes only its authentication, profile, strings and an array of strings.
    public static var supportsSecureCoding: Bool { true }

    /// Archives the user: `authentication`, `grantedScopes`, `userID`, `serverAuthCode`,
    /// `profileData`, `hostedDomain`.
    open func encode(with coder: NSCoder) {
        coder.encode(storedAuthentication, forKey: "authentication")
        coder.encode(storedGrantedScopes?.compactMap { $0 as? String } as NSArray?, forKey: "grantedScopes")
        coder.encode(storedUserID, forKey: "userID")
        coder.encode(storedServerAuthCode, forKey: "serverAuthCode")
        coder.encode(storedProfile, forKey: "profileData")
        coder.encode(storedHostedDomain, forKey: "hostedDomain")
    }

    /// Reads a user archived by ``encode(with:)``; nil without its authentication.
    public required init?(coder: NSCoder) {
        guard let authentication = coder.decodeObject(of: GIDAuthentication.self, forKey: "authentication") else { return nil }
        storedAuthentication = authentication
        storedGrantedScopes = coder.containsValue(forKey: "grantedScopes")
            ? (coder.decodeObject(of: [NSArray.self, NSString.self], forKey: "grantedScopes") as? [String]) : nil
        storedUserID = coder.presentString("userID")
        storedServerAuthCode = coder.presentString("serverAuthCode")
        storedProfile = coder.containsValue(forKey: "profileData") ? coder.decodeObject(of: GIDProfileData.self, forKey: "profileData") : nil
        storedHostedDomain = coder.presentString("hostedDomain")
        super.init()
    }
}
