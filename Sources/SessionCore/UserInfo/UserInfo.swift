import Foundation

/// The `address` claim (OIDC Core §5.1.1).
public struct Address: Sendable, Equatable, Codable {
    /// The full address as one text, possibly on several lines (`formatted`).
    public var formatted: String?
    /// Street and number (`street_address`).
    public var streetAddress: String?
    /// City or locality.
    public var locality: String?
    /// State, province or region.
    public var region: String?
    /// Postal code (`postal_code`).
    public var postalCode: String?
    /// Country.
    public var country: String?

    /// Creates an address.
    public init(streetAddress: String? = nil, country: String? = nil, formatted: String? = nil, locality: String? = nil,
                postalCode: String? = nil, region: String? = nil) {
        self.streetAddress = streetAddress; self.country = country; self.formatted = formatted
        self.locality = locality; self.postalCode = postalCode; self.region = region
    }

    enum CodingKeys: String, CodingKey {
        case formatted, streetAddress = "street_address", locality, region, postalCode = "postal_code", country
    }
}

/// The UserInfo response (OIDC Core §5.3) with the standard claims of §5.1 typed, and every
/// claim as sent in ``claims`` (a provider's own, such as netID's `shipping_address`, included).
///
/// A value that exists has a non-empty `sub` equal to the session's ID-token subject, and every
/// typed claim present has the JSON type the spec gives it (a claim of another type is an
/// `invalidResponse`). A URL claim that is not a URL is nil here and kept in ``claims``.
public struct UserInfo: Sendable, Equatable {
    /// The subject; equals the ID token's `sub`.
    public let sub: String
    /// Full name in displayable form (`name`).
    public let name: String?
    /// Given or first name (`given_name`).
    public let givenName: String?
    /// Surname or last name (`family_name`).
    public let familyName: String?
    /// Middle name (`middle_name`).
    public let middleName: String?
    /// Casual name (`nickname`).
    public let nickname: String?
    /// The name the user likes to be called by, not necessarily unique (`preferred_username`).
    public let preferredUsername: String?
    /// Profile page (`profile`).
    public let profile: URL?
    /// Profile picture (`picture`).
    public let picture: URL?
    /// Web page or blog (`website`).
    public let website: URL?
    /// E-mail address (`email`).
    public let email: String?
    /// Whether the provider verified the e-mail address (`email_verified`).
    public let emailVerified: Bool?
    /// Gender (`gender`).
    public let gender: String?
    /// Birthday, YYYY-MM-DD or YYYY as sent (`birthdate`).
    public let birthdate: String?
    /// Time zone, an IANA name such as `Europe/Paris` (`zoneinfo`).
    public let zoneinfo: String?
    /// Locale, a BCP 47 tag such as `en-US` (`locale`).
    public let locale: String?
    /// Telephone number (`phone_number`).
    public let phoneNumber: String?
    /// Whether the provider verified the telephone number (`phone_number_verified`).
    public let phoneNumberVerified: Bool?
    /// Postal address (`address`).
    public let address: Address?
    /// When the information was last updated (`updated_at`, seconds since 1970).
    public let updatedAt: Date?
    /// Every claim of the response, typed ones included.
    public let claims: [String: JSONValue]

    /// Parses a UserInfo JSON body.
    init(data: Data) throws {
        let fields = try JSONFields(data: data) { why in
            SessionError(.invalidResponse, process: .userInfo, message: "UserInfo response: \(why)")
        }
        sub = try fields.requiredString("sub")
        name = try fields.string("name")
        givenName = try fields.string("given_name")
        familyName = try fields.string("family_name")
        middleName = try fields.string("middle_name")
        nickname = try fields.string("nickname")
        preferredUsername = try fields.string("preferred_username")
        profile = try fields.string("profile").flatMap(Self.absoluteURL)
        picture = try fields.string("picture").flatMap(Self.absoluteURL)
        website = try fields.string("website").flatMap(Self.absoluteURL)
        email = try fields.string("email")
        emailVerified = try fields.bool("email_verified")
        gender = try fields.string("gender")
        birthdate = try fields.string("birthdate")
        zoneinfo = try fields.string("zoneinfo")
        locale = try fields.string("locale")
        phoneNumber = try fields.string("phone_number")
        phoneNumberVerified = try fields.bool("phone_number_verified")
        address = try Self.decode(Address.self, fields.members["address"], "address", failure: fields.fail)
        updatedAt = try fields.number("updated_at").map { Date(timeIntervalSince1970: $0) }
        claims = fields.members
    }

    /// `text` as a URL with a scheme; nil for anything else (Foundation would percent-encode a
    /// phrase into a relative URL).
    private static func absoluteURL(_ text: String) -> URL? {
        URL(string: text).flatMap { $0.scheme == nil ? nil : $0 }
    }

    /// The claim `key` decoded as `T` (a provider's own claim, such as netID's `shipping_address`
    /// as a `Codable` struct of the app's); nil when absent or null.
    /// - Throws: `invalidResponse` when it is there but not a `T`.
    public func claim<T: Decodable>(_ key: String, as type: T.Type) throws -> T? {
        try Self.decode(T.self, claims[key], key) { SessionError(.invalidResponse, process: .userInfo, message: "UserInfo response: \($0)") }
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ value: JSONValue?, _ key: String,
                                             failure: (String) -> SessionError) throws -> T? {
        guard let value, value != .null else { return nil }
        do {
            return try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
        } catch {
            throw failure("member '\(key)' is not a valid \(T.self)")
        }
    }
}
