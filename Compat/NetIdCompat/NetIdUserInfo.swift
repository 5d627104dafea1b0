import Foundation
import SessionCore

/// The user's claims from UserInfo, in netID's shape: `sub` and the optional standard claims,
/// with netID's JSON keys. Its `description` is its JSON text.
public struct UserInfo: Codable, Sendable, Equatable, CustomStringConvertible {
    /// The subject; equals the ID token's `sub`.
    public let sub: String
    /// `birthdate`, as sent (YYYY-MM-DD).
    public let birthdate: String?
    /// `email_verified`.
    public let emailVerified: Bool?
    /// `address`.
    public let address: Address?
    /// `gender`.
    public let gender: String?
    /// `shipping_address`.
    public let shippingAddress: ShippingAddress?
    /// `given_name`.
    public let givenName: String?
    /// `family_name`.
    public let familyName: String?
    /// `email`.
    public let email: String?

    /// Creates user information with every claim, as netID's initializer does.
    public init(sub: String, birthdate: String, emailVerified: Bool, address: Address, gender: String,
                shippingAddress: ShippingAddress, givenName: String, familyName: String, email: String) {
        self.sub = sub
        self.birthdate = birthdate
        self.emailVerified = emailVerified
        self.address = address
        self.gender = gender
        self.shippingAddress = shippingAddress
        self.givenName = givenName
        self.familyName = familyName
        self.email = email
    }

    /// The claims netID reads, `shipping_address` (netID's own) from the raw claims.
    /// - Throws: `invalidResponse` when `shipping_address` is not an address object, which netID
    ///   could not decode either.
    init(_ info: SessionCore.UserInfo) throws {
        sub = info.sub
        birthdate = info.birthdate
        emailVerified = info.emailVerified
        address = info.address.map(Address.init)
        gender = info.gender
        shippingAddress = try info.claim("shipping_address", as: ShippingAddress.self)
        givenName = info.givenName
        familyName = info.familyName
        email = info.email
    }

    /// The JSON text of the claims present.
    public var description: String { jsonDescription(of: self) }

    private enum CodingKeys: String, CodingKey {
        case sub, birthdate, emailVerified = "email_verified", address, gender, shippingAddress = "shipping_address",
             givenName = "given_name", familyName = "family_name", email
    }
}

/// A postal address claim, in netID's shape.
public struct Address: Codable, Sendable, Equatable {
    /// `street_address`.
    public let streetAddress: String?
    /// `country`.
    public let country: String?
    /// `formatted`: the whole address as one text.
    public let formatted: String?
    /// `locality`.
    public let locality: String?
    /// `postal_code`.
    public let postalCode: String?

    /// Creates an address with every member, as netID's initializer does.
    public init(streetAddress: String, country: String, formatted: String, locality: String, postalCode: String) {
        self.streetAddress = streetAddress
        self.country = country
        self.formatted = formatted
        self.locality = locality
        self.postalCode = postalCode
    }

    init(_ address: SessionCore.Address) {
        streetAddress = address.streetAddress
        country = address.country
        formatted = address.formatted
        locality = address.locality
        postalCode = address.postalCode
    }

    private enum CodingKeys: String, CodingKey {
        case streetAddress = "street_address", country, formatted, locality, postalCode = "postal_code"
    }
}

/// netID's `shipping_address` claim: an address with a recipient.
public struct ShippingAddress: Codable, Sendable, Equatable {
    /// `street_address`.
    public let streetAddress: String?
    /// `country`.
    public let country: String?
    /// `formatted`: the whole address as one text.
    public let formatted: String?
    /// `locality`.
    public let locality: String?
    /// `postal_code`.
    public let postalCode: String?
    /// `recipient`: who receives the shipment.
    public let recipient: String?

    /// Creates a shipping address with every member, in netID's label order.
    public init(streetAddress: String, country: String, formatted: String, locality: String, postalCode: String, recipient: String) {
        self.streetAddress = streetAddress
        self.country = country
        self.formatted = formatted
        self.locality = locality
        self.postalCode = postalCode
        self.recipient = recipient
    }

    private enum CodingKeys: String, CodingKey {
        case streetAddress = "street_address", country, formatted, locality, postalCode = "postal_code", recipient
    }
}
