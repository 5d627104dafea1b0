import Foundation

/// How the client proves itself to the token and revocation endpoints (RFC 6749 §2.3).
///
/// A public client (``none``, the default) has no secret and relies on PKCE, as every native app
/// must: a secret shipped in an app is no secret (RFC 8252 §8.5), so configure one only where it
/// stays on a server or a machine you control. PKCE S256 stays on for confidential clients too
/// (RFC 9700 §2.1.1). A secret or private key never appears in a log line, an error, a description, the token
/// store or the authorization URL.
public enum ClientAuthentication: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// A public client: `client_id` in the form, no secret.
    case none
    /// `client_secret_basic`: the client ID and secret, each form-URL-encoded, in an HTTP Basic
    /// `Authorization` header (RFC 6749 §2.3.1).
    case clientSecretBasic(String)
    /// `client_secret_post`: `client_id` and `client_secret` in the form.
    case clientSecretPost(String)
    /// `private_key_jwt`: a client assertion signed with the client's private key, made afresh
    /// for each request (RFC 7523 §2.2, OpenID Connect Core §9): `iss` and `sub` the client ID,
    /// `aud` the token endpoint's URL, a random `jti`, valid for two minutes. The provider holds
    /// only the public half (``ClientSigningKey/publicJWK``), so nothing it stores can
    /// impersonate the client.
    case privateKeyJWT(ClientSigningKey)

    /// The method's registered name, never the secret.
    public var description: String {
        switch self {
        case .none: "none"
        case .clientSecretBasic: "client_secret_basic (secret redacted)"
        case .clientSecretPost: "client_secret_post (secret redacted)"
        case .privateKeyJWT(let key): "private_key_jwt (\(key))"
        }
    }

    /// Same as ``description``: debug output shows no secret either.
    public var debugDescription: String { description }

    /// A mirror without the secret, so `dump` and reflection show none.
    public var customMirror: Mirror { Mirror(self, children: ["method": description], displayStyle: .enum) }

    /// `parameters` sent to the token or revocation endpoint at `url` by `clientID` at `now`,
    /// authenticated as this method says; a client assertion's audience is `audience`.
    /// - Throws: ``SessionError`` `cryptoFailure` when the assertion cannot be signed.
    func request(_ url: URL, clientID: String, _ parameters: [(String, String)], audience: String, now: Date) throws -> HTTPRequest {
        switch self {
        case .none:
            return .formPost(url, parameters + [("client_id", clientID)])
        case .clientSecretPost(let secret):
            return .formPost(url, parameters + [("client_id", clientID), ("client_secret", secret)])
        case .clientSecretBasic(let secret):
            var request = HTTPRequest.formPost(url, parameters)
            let credentials = "\(FormEncoding.escape(clientID)):\(FormEncoding.escape(secret))"
            request.headers["Authorization"] = "Basic " + Data(credentials.utf8).base64EncodedString()
            return request
        case .privateKeyJWT(let key):
            let assertion = try ClientAssertion.make(clientID: clientID, audience: audience, key: key, now: now)
            return .formPost(url, parameters + [("client_id", clientID), ("client_assertion_type", ClientAssertion.type),
                                                ("client_assertion", assertion)])
        }
    }
}
