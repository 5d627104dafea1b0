import Foundation

/// A client's private key for `private_key_jwt` client authentication
/// (``ClientAuthentication/privateKeyJWT(_:)``): an RSA key (2048 bits or more) that signs RS256
/// or a P-256 key that signs ES256, read from an unencrypted PKCS #8 key file and held by the
/// platform's crypto library (libcrypto on Linux, Security and CryptoKit on Apple platforms).
///
/// Register ``publicJWK`` with the provider. The private key never appears in a description, a
/// log line, an error or the token store.
///
/// ```swift
/// let key = try ClientSigningKey(contentsOf: URL(fileURLWithPath: "/etc/myapp/client-key.pem"), keyID: "2026-12")
/// let configuration = try SessionConfiguration(issuer: issuer, clientID: "my-service", redirectURI: redirect,
///                                              clientAuthentication: .privateKeyJWT(key))
/// ```
public struct ClientSigningKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The algorithm the key signs client assertions with, from the key's type.
    public let algorithm: JWSAlgorithm
    /// The `kid` header of each assertion, naming the key among those registered; nil sends none.
    public let keyID: String?
    /// The public half, to register with the provider (as a JWK, or in a JWK Set it fetches).
    public let publicJWK: JSONWebKey
    private let key: any PrivateSigningKey

    /// Reads the one `-----BEGIN PRIVATE KEY-----` block (unencrypted PKCS #8) of `pem`.
    /// - Throws: ``SessionError`` `invalidConfiguration` when it holds no such key, an encrypted
    ///   or PKCS #1 / SEC 1 one (the message says how to convert it), another algorithm or curve,
    ///   an RSA key the core refuses to verify with, or a key whose halves do not match.
    public init(pem: String, keyID: String? = nil) throws {
        try self.init(try PKCS8PrivateKey(pem: pem), keyID: keyID)
    }

    /// Reads an unencrypted PKCS #8 `PrivateKeyInfo` in DER.
    /// - Throws: as ``init(pem:keyID:)``.
    public init(pkcs8DER: Data, keyID: String? = nil) throws {
        try self.init(try PKCS8PrivateKey(der: pkcs8DER), keyID: keyID)
    }

    /// Reads the PEM key file at `url`, which must be the user's own (or root's), not readable by
    /// others and writable by its owner only, as ssh requires of a private key (`chmod 600`; group
    /// read, as in `root:service 0640`, is allowed).
    /// - Throws: ``SessionError`` `invalidConfiguration` when the file cannot be read or is not a
    ///   regular file (a FIFO is refused at once, never waited on), or as ``init(pem:keyID:)``.
    public init(contentsOf url: URL, keyID: String? = nil) throws {
        let data: Data
        do {
            // A FIFO or device in its place is refused at once rather than read (or waited on).
            data = try RegularFile.read(url.path, limit: 1 << 16)
        } catch let refusal as RegularFile.Refusal {
            throw Self.failure(refusal.reason)
        }
        guard let pem = String(data: data, encoding: .utf8) else { throw Self.failure("\(url.path) is not PEM text") }
        try self.init(pem: pem, keyID: keyID)
    }

    private init(_ pkcs8: PKCS8PrivateKey, keyID: String?) throws {
        if let keyID, keyID.isEmpty { throw Self.failure("the key ID is empty") }
        let key = try PlatformCrypto.importPrivateKey(pkcs8)
        let jwk: JSONWebKey
        switch try key.publicKey() {
        case .rsa(let modulus, let exponent):
            // The provider applies its own rules; ours are the ones the core verifies by.
            if let problem = RSAKeyPolicy.problem(modulus: modulus, exponent: exponent) { throw Self.failure(problem) }
            jwk = JSONWebKey(kty: "RSA", kid: keyID, alg: key.algorithm.rawValue, use: "sig",
                             n: Base64URL.encode(modulus), e: Base64URL.encode(exponent))
        case .p256(let x, let y):
            jwk = JSONWebKey(kty: "EC", kid: keyID, alg: key.algorithm.rawValue, use: "sig", crv: "P-256",
                             x: Base64URL.encode(x), y: Base64URL.encode(y))
        }
        // A key file whose public half does not belong to its private half signs assertions no
        // provider accepts; say so now rather than at the first sign-in.
        let probe = Data("SessionService client key check".utf8)
        guard try PlatformCrypto.verify(key.algorithm, key: jwk, message: probe, signature: key.sign(probe)) else {
            throw Self.failure("the key's public half does not match its private half")
        }
        algorithm = key.algorithm
        self.keyID = keyID
        publicJWK = jwk
        self.key = key
    }

    /// The JWS signature of `input` (PKCS #1 v1.5 for RS256, r || s for ES256).
    package func sign(_ input: Data) throws -> Data {
        try key.sign(input)
    }

    /// Two keys are equal when their public halves and key IDs are.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.publicJWK == rhs.publicJWK
    }

    /// The algorithm and key ID, never the key.
    public var description: String {
        "\(algorithm.rawValue) key\(keyID.map { " \"\($0)\"" } ?? "") (private key redacted)"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror without the key, so `dump` and reflection show none.
    public var customMirror: Mirror { Mirror(self, children: ["key": description], displayStyle: .struct) }

    private static func failure(_ why: String) -> SessionError {
        SessionError(.invalidConfiguration, process: .configuration, message: "private key: \(why)")
    }
}
