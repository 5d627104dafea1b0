import Foundation

/// A client an authorization server registered (RFC 7591 §3.2.1): the `client_id` to sign in
/// with, a secret when the server issued one, and what lets the client manage the registration.
///
/// ``description`` and `dump` never show the secret or the registration access token.
public struct RegisteredClient: Sendable, Equatable, Codable, CustomStringConvertible, CustomReflectable {
    /// The authorization server's issuer, where the client is registered.
    public let issuer: String
    /// `client_id`.
    public let clientID: String
    /// `client_secret`, for a confidential registration (a secret).
    public let clientSecret: String?
    /// `client_secret_expires_at`: when the secret, and so the registration, stops working; nil
    /// when it does not expire (the RFC's 0) or there is no secret.
    public let expiresAt: Date?
    /// `registration_access_token` (RFC 7592): what reads or changes the registration (a secret).
    public let registrationAccessToken: String?
    /// `registration_client_uri` (RFC 7592): where the registration is read or changed.
    public let registrationClientURI: URL?
    /// The redirect URIs registered.
    public let redirectURIs: [URL]
    /// `token_endpoint_auth_method` as registered (`none`, `client_secret_basic`,
    /// `client_secret_post`); nil when the server did not say.
    public let tokenEndpointAuthMethod: String?

    /// Creates a registration.
    public init(issuer: String, clientID: String, clientSecret: String? = nil, expiresAt: Date? = nil,
                registrationAccessToken: String? = nil, registrationClientURI: URL? = nil, redirectURIs: [URL],
                tokenEndpointAuthMethod: String? = nil) {
        self.issuer = issuer
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.expiresAt = expiresAt
        self.registrationAccessToken = registrationAccessToken
        self.registrationClientURI = registrationClientURI
        self.redirectURIs = redirectURIs
        self.tokenEndpointAuthMethod = tokenEndpointAuthMethod
    }

    /// The client an RFC 7591 §3.2.1 response `body` registered at `issuer` for `metadata`.
    /// - Throws: `invalidResponse` (process `configuration`) for a body that is not a JSON object
    ///   of the RFC's members, has no `client_id`, or registered other redirect URIs than asked.
    init(registrationResponse body: Data, issuer: String, metadata: ClientMetadata) throws {
        let fields = try JSONFields(data: body) { why in
            SessionError(.invalidResponse, process: .configuration, message: "client registration: \(why)")
        }
        let clientID = try fields.requiredString("client_id")
        guard !clientID.isEmpty else { throw fields.fail("'client_id' is empty") }
        let asked = metadata.redirectURIs.map(\.absoluteString)
        let registered = try fields.strings("redirect_uris") ?? asked
        guard registered.allSatisfy({ Exact.contains(asked, $0) }), asked.allSatisfy({ Exact.contains(registered, $0) }) else {
            throw fields.fail("the server registered other redirect URIs than were asked for")
        }
        // RFC 7591 §3.2.1: 0 means the secret does not expire.
        let expiresAt = try fields.number("client_secret_expires_at").flatMap { $0 > 0 ? Date(timeIntervalSince1970: $0) : nil }
        self.init(issuer: issuer, clientID: clientID, clientSecret: try fields.string("client_secret"), expiresAt: expiresAt,
                  registrationAccessToken: try fields.string("registration_access_token"),
                  registrationClientURI: try fields.url("registration_client_uri"), redirectURIs: metadata.redirectURIs,
                  tokenEndpointAuthMethod: try fields.string("token_endpoint_auth_method") ?? metadata.tokenEndpointAuthMethod)
    }

    /// True when the registration no longer works at `now` (within a minute of its expiry): a
    /// client then registers again.
    public func isExpired(at now: Date) -> Bool {
        expiresAt.map { $0.timeIntervalSince(now) <= 60 } ?? false
    }

    /// How the client authenticates at the token endpoint: with its secret the way it was
    /// registered (`client_secret_post`, else `client_secret_basic`, RFC 7591's default), or as a
    /// public client without one.
    public var clientAuthentication: ClientAuthentication {
        guard let clientSecret else { return .none }
        return Exact.equal(tokenEndpointAuthMethod, "client_secret_post") ? .clientSecretPost(clientSecret) : .clientSecretBasic(clientSecret)
    }

    /// The issuer, the client ID and the expiry; never a secret.
    public var description: String {
        let expiry = expiresAt.map { "expires \(ISO8601DateFormatter().string(from: $0))" } ?? "no expiry"
        return "RegisteredClient(\(issuer), client_id: \(clientID), secret: \(clientSecret == nil ? "none" : "<redacted>"), "
            + "registration access token: \(registrationAccessToken == nil ? "none" : "<redacted>"), \(expiry))"
    }

    /// What `dump` shows: the ``description``.
    public var customMirror: Mirror { Mirror(self, children: ["registration": description], displayStyle: .struct) }
}
