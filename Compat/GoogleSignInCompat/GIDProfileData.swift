import Foundation
import SessionCore

/// The signed-in user's basic profile: from the ID token's claims when they carry it, from
/// UserInfo otherwise (only when `shouldFetchBasicProfile`).
///
/// `open`, as every class Swift imports from Objective-C is: a test double may subclass it and
/// override its members; ``init()`` makes an empty profile for that.
/// Immutable (every stored property is a `let`): it may be read from any thread.
open class GIDProfileData: NSObject, NSSecureCoding, NSCopying {
    private let storedEmail: String?
    private let storedName: String?
    private let storedGivenName: String?
    private let storedFamilyName: String?
    private let picture: URL?

    /// `email`.
    open var email: String! { storedEmail }
    /// The full name.
    open var name: String! { storedName }
    /// `given_name`.
    open var givenName: String! { storedGivenName }
    /// `family_name`.
    open var familyName: String! { storedFamilyName }
    /// Whether a profile image exists (`picture`).
    open var hasImage: Bool { picture != nil }

    /// An empty profile (every field nil), for a subclass or a test double.
    override public init() {
        (storedEmail, storedName, storedGivenName, storedFamilyName, picture) = (nil, nil, nil, nil, nil)
        super.init()
    }

    init(email: String?, name: String?, givenName: String?, familyName: String?, picture: URL?) {
        storedEmail = email
        storedGivenName = givenName
        storedFamilyName = familyName
        storedName = name ?? [givenName, familyName].compactMap { $0 }.joined(separator: " ")
        self.picture = picture
        super.init()
    }

    convenience init(_ info: UserInfo) {
        self.init(email: info.email, name: info.name, givenName: info.givenName, familyName: info.familyName, picture: info.picture)
    }

    /// The profile the ID token carries, as Google Sign-In reads it (GIDSignIn.m, f8f0517, lines
    /// 521–534): only when it has `picture`, `name`, `given_name` and `family_name`; nil otherwise,
    /// and the profile then comes from UserInfo.
    convenience init?(idTokenClaims claims: [String: JSONValue]) {
        guard let picture = claims["picture"]?.stringValue, let name = claims["name"]?.stringValue,
              let givenName = claims["given_name"]?.stringValue, let familyName = claims["family_name"]?.stringValue else { return nil }
        self.init(email: claims["email"]?.stringValue, name: name, givenName: givenName, familyName: familyName,
                  picture: URL(string: picture))
    }

    // MARK: NSSecureCoding and NSCopying, under GIDProfileData.m's keys (6.0.0)

    /// True: the profile decodes only strings and a URL.
    public static var supportsSecureCoding: Bool { true }

    /// Archives the profile: `email`, `name`, `given_name`, `family_name`, `image_url`.
    open func encode(with coder: NSCoder) {
        coder.encode(storedEmail, forKey: "email")
        coder.encode(storedName, forKey: "name")
        coder.encode(storedGivenName, forKey: "given_name")
        coder.encode(storedFamilyName, forKey: "family_name")
        coder.encode(picture, forKey: "image_url")
    }

    /// Reads a profile archived by ``encode(with:)`` or by Google Sign-In (whose older archives
    /// kept the image as the string `picture`); a key the archive lacks reads as nil.
    public required init?(coder: NSCoder) {
        storedEmail = coder.presentString("email")
        storedName = coder.presentString("name")
        storedGivenName = coder.presentString("given_name")
        storedFamilyName = coder.presentString("family_name")
        let imageURL = coder.containsValue(forKey: "image_url") ? coder.decodeObject(of: NSURL.self, forKey: "image_url") as URL? : nil
        picture = imageURL ?? coder.presentString("picture").flatMap(URL.init(string:))
        super.init()
    }

    /// The profile itself: it never changes.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// The profile image URL; the size hint is passed on as Google's `sz` parameter.
    open func imageURL(withDimension dimension: UInt) -> URL! {
        guard let picture, var components = URLComponents(url: picture, resolvingAgainstBaseURL: false) else { return nil }
        components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "sz", value: String(dimension))]
        return components.url
    }
}

extension NSCoder {
    /// The string under `key`; nil when the archive lacks the key (an older or partial archive).
    func presentString(_ key: String) -> String? {
        containsValue(forKey: key) ? decodeObject(of: NSString.self, forKey: key) as String? : nil
    }
}
