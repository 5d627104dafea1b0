import Foundation

/// A postal address claim (OIDC Core §5.1.1) with netID's members.
public struct Address: Sendable, Equatable, Codable {
    /// Street and number (`street_address`).
    public var streetAddress: String?
    /// Country.
    public var country: String?
    /// The full address as one text.
    public var formatted: String?
    /// City or locality.
    public var locality: String?
    /// Postal code (`postal_code`).
    public var postalCode: String?

    /// Creates an address.
    public init(streetAddress: String? = nil, country: String? = nil, formatted: String? = nil, locality: String? = nil, postalCode: String? = nil) {
        self.streetAddress = streetAddress; self.country = country; self.formatted = formatted
        self.locality = locality; self.postalCode = postalCode
    }

    enum CodingKeys: String, CodingKey {
        case streetAddress = "street_address", country, formatted, locality, postalCode = "postal_code"
    }
}

/// netID's `shipping_address` claim: an address with a recipient.
public struct ShippingAddress: Sendable, Equatable, Codable {
    /// Who receives the shipment.
    public var recipient: String?
    /// Street and number (`street_address`).
    public var streetAddress: String?
    /// Country.
    public var country: String?
    /// The full address as one text.
    public var formatted: String?
    /// City or locality.
    public var locality: String?
    /// Postal code (`postal_code`).
    public var postalCode: String?

    /// Creates a shipping address.
    public init(recipient: String? = nil, streetAddress: String? = nil, country: String? = nil, formatted: String? = nil,
                locality: String? = nil, postalCode: String? = nil) {
        self.recipient = recipient; self.streetAddress = streetAddress; self.country = country
        self.formatted = formatted; self.locality = locality; self.postalCode = postalCode
    }

    enum CodingKeys: String, CodingKey {
        case recipient, streetAddress = "street_address", country, formatted, locality, postalCode = "postal_code"
    }
}

/// The UserInfo response (OIDC Core §5.3): netID's typed fields plus every claim as sent.
///
/// A value that exists has a non-empty `sub` equal to the session's ID-token subject, and every
/// typed field present has the type the spec gives it.
public struct UserInfo: Sendable, Equatable {
    /// The subject; equals the ID token's `sub`.
    public let sub: String
    /// The `email` claim.
    public let email: String?
    /// The `email_verified` claim.
    public let emailVerified: Bool?
    /// The `given_name` claim.
    public let givenName: String?
    /// The `family_name` claim.
    public let familyName: String?
    /// The `birthdate` claim (YYYY-MM-DD as sent).
    public let birthdate: String?
    /// The `gender` claim.
    public let gender: String?
    /// The `address` claim.
    public let address: Address?
    /// netID's `shipping_address` claim.
    public let shippingAddress: ShippingAddress?
    /// Every claim of the response, typed fields included.
    public let claims: [String: JSONValue]

    /// Parses a UserInfo JSON body.
    init(data: Data) throws {
        let fields = try JSONFields(data: data) { why in
            SessionError(.invalidResponse, process: .userInfo, message: "UserInfo response: \(why)")
        }
        sub = try fields.requiredString("sub")
        email = try fields.string("email")
        emailVerified = try fields.bool("email_verified")
        givenName = try fields.string("given_name")
        familyName = try fields.string("family_name")
        birthdate = try fields.string("birthdate")
        gender = try fields.string("gender")
        address = try Self.decode(Address.self, fields, "address")
        shippingAddress = try Self.decode(ShippingAddress.self, fields, "shipping_address")
        claims = fields.members
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ fields: JSONFields, _ key: String) throws -> T? {
        guard let value = fields.members[key], value != .null else { return nil }
        do {
            return try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
        } catch {
            throw fields.fail("member '\(key)' is not an address object")
        }
    }
}
