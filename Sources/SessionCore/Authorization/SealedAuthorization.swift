import Foundation

/// A pending authorization request — its `state`, `nonce` and PKCE verifier — sealed so that it
/// can leave the server with the browser (a cookie) and come back to any server that holds the
/// ``AuthorizationSealingKey``: ``SessionClient/beginAuthorization(scopes:keepingIn:lifetime:)`` with
/// ``PendingAuthorizationPlace/sealed(_:finishedIn:)`` makes its value (the begun sign-in's cookie),
/// ``SessionClient/completeAuthorization(callbackURL:keptIn:cookie:)`` finishes it.
///
/// It is AES-256-GCM under the app's key, bound to the issuer, client and redirect URI, and
/// expires (ten minutes by default). Nothing in it can be read without the key, and a changed
/// byte, another key, another provider or an expired one is refused as `stateMismatch`.
public struct SealedAuthorization: Sendable, Equatable, CustomStringConvertible {
    /// The sealed value, URL-safe ASCII: put it in an `HttpOnly`, `Secure`, `SameSite=Lax` cookie.
    public let value: String

    /// A sealed value as it came back (from the cookie).
    public init(value: String) {
        self.value = value
    }

    /// Never the value.
    public var description: String { "SealedAuthorization(\(value.utf8.count) bytes)" }
}

/// The key pending authorizations are sealed with: 32 random bytes the app keeps as secret as a
/// client secret, the same on every server that may finish a sign-in another began.
public struct AuthorizationSealingKey: Sendable, CustomStringConvertible {
    let bytes: Data

    /// A key of 32 bytes (from the app's secret store).
    /// - Throws: `invalidConfiguration` for any other length.
    public init(_ bytes: Data) throws {
        guard bytes.count == 32 else {
            throw SessionError(.invalidConfiguration, process: .configuration, message: "an authorization sealing key has 32 bytes, not \(bytes.count)")
        }
        self.bytes = bytes
    }

    /// A fresh key from the system CSPRNG.
    /// - Throws: `cryptoFailure` when the platform cannot draw one.
    public static func generate() throws -> AuthorizationSealingKey {
        try AuthorizationSealingKey(PlatformCrypto.randomBytes(32))
    }

    /// Never the key.
    public var description: String { "AuthorizationSealingKey(<redacted>)" }
}

/// What a sealed authorization holds, and how it is sealed and opened.
struct SealedAuthorizationPayload: Codable {
    var url: URL
    var redirectURI: URL
    var scopes: [String]
    var state: String
    var nonce: String?
    var codeVerifier: String
    var issuer: String
    var issuerRequired: Bool
    var expiresAt: Double

    static let prefix = "v1."

    init(_ request: AuthorizationRequest, expiresAt: Date) {
        url = request.url
        redirectURI = request.redirectURI
        scopes = request.scopes
        state = request.state
        nonce = request.nonce
        codeVerifier = request.codeVerifier
        issuer = request.issuer
        issuerRequired = request.issuerRequired
        self.expiresAt = expiresAt.timeIntervalSince1970
    }

    /// The request it holds.
    func request() throws -> AuthorizationRequest {
        AuthorizationRequest(url: url, redirectURI: redirectURI, scopes: scopes, state: state, nonce: nonce,
                             pkce: try PKCE(verifier: codeVerifier), issuer: issuer, issuerRequired: issuerRequired)
    }

    /// What the seal authenticates besides the payload: the client it was made for, and where its
    /// response comes back.
    static func binding(_ configuration: SessionConfiguration) -> Data {
        Data(("SessionService sealed authorization v1\n\(configuration.issuer.absoluteString)\n\(configuration.clientID)\n"
            + configuration.redirectURI.absoluteString).utf8)
    }

    func seal(with key: AuthorizationSealingKey, for configuration: SessionConfiguration) throws -> SealedAuthorization {
        let sealed = try SealedBox.seal(try JSONEncoder().encode(self), key: key.bytes, associatedData: Self.binding(configuration))
        return SealedAuthorization(value: Self.prefix + Base64URL.encode(sealed))
    }

    /// The payload `sealed` holds for `configuration`, or nil when it was not sealed with `key` for
    /// it, was changed, or is not a sealed authorization at all.
    static func open(_ sealed: SealedAuthorization, with key: AuthorizationSealingKey, for configuration: SessionConfiguration) throws -> Self? {
        // Byte by byte: the prefix is ASCII, and no Unicode equivalence may stand in for it.
        let value = Array(sealed.value.utf8)
        guard value.count <= 16_384, value.starts(with: prefix.utf8) else { return nil }
        let encoded = String(decoding: value.dropFirst(prefix.utf8.count), as: UTF8.self)
        // Canonical base64url only: a value whose unused trailing bits were changed decodes to the
        // same bytes, and is refused like any other change.
        guard let bytes = Base64URL.decode(encoded), bytes.count > 12 + 16, Exact.equal(Base64URL.encode(bytes), encoded) else { return nil }
        guard let plaintext = try SealedBox.open(bytes, key: key.bytes, associatedData: binding(configuration)) else { return nil }
        return try? JSONDecoder().decode(Self.self, from: plaintext)
    }
}
