import Foundation

/// A sign-in's client settings, as Google Sign-In 5.x's public headers declare them (f8f0517's
/// GIDConfiguration.h): the client ID and, optionally, the app's server, a login hint, a hosted
/// domain and an OpenID 2 realm. Immutable; ``GIDSignIn`` takes the same settings one by one
/// (``GIDSignIn/clientID``, ``GIDSignIn/serverClientID``, ...), which is how 5.x's `GIDSignIn` is
/// configured.
///
/// `open`, as every class Swift imports from Objective-C is.
open class GIDConfiguration: NSObject, NSCopying, NSSecureCoding {
    private let storedClientID: String
    private let storedServerClientID: String?
    private let storedLoginHint: String?
    private let storedHostedDomain: String?
    private let storedOpenIDRealm: String?

    /// The client ID.
    open var clientID: String { storedClientID }
    /// The client ID of the app's server, if any.
    open var serverClientID: String? { storedServerClientID }
    /// The login hint, if any.
    open var loginHint: String? { storedLoginHint }
    /// The hosted domain (`hd`), if any.
    open var hostedDomain: String? { storedHostedDomain }
    /// The OpenID 2 realm, if any.
    open var openIDRealm: String? { storedOpenIDRealm }

    /// A configuration with a client ID only.
    public convenience init(clientID: String) {
        self.init(clientID: clientID, serverClientID: nil, loginHint: nil, hostedDomain: nil, openIDRealm: nil)
    }

    /// A configuration with a client ID and the app's server's.
    public convenience init(clientID: String, serverClientID: String?) {
        self.init(clientID: clientID, serverClientID: serverClientID, loginHint: nil, hostedDomain: nil, openIDRealm: nil)
    }

    /// A configuration with every setting.
    public init(clientID: String, serverClientID: String?, loginHint: String?, hostedDomain: String?, openIDRealm: String?) {
        storedClientID = clientID
        storedServerClientID = serverClientID
        storedLoginHint = loginHint
        storedHostedDomain = hostedDomain
        storedOpenIDRealm = openIDRealm
        super.init()
    }

    /// The configuration itself: it never changes.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// True: a configuration decodes only strings.
    public static var supportsSecureCoding: Bool { true }

    /// Archives the settings under their property names.
    open func encode(with coder: NSCoder) {
        coder.encode(storedClientID, forKey: "clientID")
        coder.encode(storedServerClientID, forKey: "serverClientID")
        coder.encode(storedLoginHint, forKey: "loginHint")
        coder.encode(storedHostedDomain, forKey: "hostedDomain")
        coder.encode(storedOpenIDRealm, forKey: "openIDRealm")
    }

    /// Reads a configuration archived by ``encode(with:)``; nil without a client ID.
    public required init?(coder: NSCoder) {
        guard let clientID = coder.presentString("clientID") else { return nil }
        storedClientID = clientID
        storedServerClientID = coder.presentString("serverClientID")
        storedLoginHint = coder.presentString("loginHint")
        storedHostedDomain = coder.presentString("hostedDomain")
        storedOpenIDRealm = coder.presentString("openIDRealm")
        super.init()
    }
}
