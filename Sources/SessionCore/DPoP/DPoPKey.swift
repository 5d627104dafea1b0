import Foundation

/// A session's DPoP key (RFC 9449): a P-256 key made by the platform's crypto library, to which
/// the provider binds the session's tokens. It is kept with the session's tokens in their store
/// (PKCS #8, in the envelope) and deleted with them; it never appears in a description.
package struct DPoPKey: Sendable, CustomStringConvertible, CustomReflectable {
    private let key: any PrivateSigningKey
    /// The private key as it is stored: unencrypted PKCS #8, DER. A secret.
    package let pkcs8: Data
    /// The public key's coordinates, base64url (RFC 7518 §6.2.1).
    package let x: String, y: String

    /// A fresh key.
    /// - Throws: `cryptoFailure` when the crypto library cannot make one.
    package static func generate() throws -> DPoPKey {
        let key = try PlatformPrivateKey(generating: .es256)
        return try DPoPKey(key, pkcs8: try key.pkcs8DER())
    }

    /// The key a session stored.
    /// - Throws: `reauthenticationRequired` when `pkcs8` is no P-256 private key: tokens bound to
    ///   a key that is gone cannot be used, and are never sent unbound.
    package init(pkcs8: Data) throws {
        let key: any PrivateSigningKey
        do {
            let imported = try PKCS8PrivateKey(der: pkcs8)
            guard imported.algorithm == .es256 else { throw Self.unusable }
            key = try PlatformPrivateKey(imported)
        } catch {
            throw Self.unusable
        }
        try self.init(key, pkcs8: pkcs8)
    }

    private init(_ key: any PrivateSigningKey, pkcs8: Data) throws {
        guard case .p256(let x, let y) = try key.publicKey() else { throw Self.unusable }
        self.key = key
        self.pkcs8 = pkcs8
        self.x = Base64URL.encode(x)
        self.y = Base64URL.encode(y)
    }

    private static var unusable: SessionError {
        SessionError(.reauthenticationRequired, process: .authentication,
                     message: "the session's DPoP key cannot be read: its tokens cannot be used; sign in again")
    }

    /// The public key as a JWK, its members in the order RFC 7638 hashes them.
    package var publicJWK: [(String, String)] { [("crv", "P-256"), ("kty", "EC"), ("x", x), ("y", y)] }

    /// The JWK thumbprint (RFC 7638, SHA-256, base64url): the `jkt` the provider binds tokens to.
    package func thumbprint() throws -> String {
        try Self.thumbprint(x: x, y: y)
    }

    /// The JWK thumbprint of the P-256 public key (`x`, `y` base64url), as a server computes it.
    package static func thumbprint(x: String, y: String) throws -> String {
        Base64URL.encode(try PlatformCrypto.sha256(Data("{\"crv\":\"P-256\",\"kty\":\"EC\",\"x\":\"\(x)\",\"y\":\"\(y)\"}".utf8)))
    }

    /// The ES256 signature (r || s) of `message`.
    package func sign(_ message: Data) throws -> Data {
        try key.sign(message)
    }

    /// The key's kind, never the key.
    package var description: String { "DPoPKey(P-256)" }

    /// What `dump` shows: the ``description``; the PKCS #8 bytes would otherwise be listed one by one.
    package var customMirror: Mirror { Mirror(self, children: ["key": description], displayStyle: .struct) }
}
