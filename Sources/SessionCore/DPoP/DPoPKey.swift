import Foundation

/// A session's DPoP key (RFC 9449): a P-256 key made by the platform's crypto library, to which
/// the provider binds the session's tokens. On Apple platforms with a Secure Enclave it is made
/// there and only a reference to it is stored; elsewhere the key itself (PKCS #8) is kept with the
/// session's tokens in their store's envelope. Either is deleted with the tokens, and never
/// appears in a description.
package struct DPoPKey: Sendable, CustomStringConvertible, CustomReflectable {
    /// What a store keeps of the key.
    package enum Material: Sendable, Equatable {
        /// The private key: unencrypted PKCS #8, DER. A secret.
        case pkcs8(Data)
        /// A reference to a key in this device's Secure Enclave (CryptoKit's `dataRepresentation`):
        /// usable only by that Secure Enclave, which never lets the key out.
        case secureEnclave(Data)
    }

    private let key: any PrivateSigningKey
    /// What the session's store keeps of the key.
    package let material: Material
    /// The public key's coordinates, base64url (RFC 7518 §6.2.1).
    package let x: String, y: String

    /// A fresh key: in the Secure Enclave where there is one, else in memory.
    /// - Throws: `cryptoFailure` when the crypto library cannot make one.
    package static func generate() throws -> DPoPKey {
        #if !canImport(CLibCrypto) && canImport(CryptoKit) && canImport(Security)
        if let enclaveKey = ApplePrivateKey.secureEnclaveP256(), let reference = enclaveKey.secureEnclaveReference {
            return try DPoPKey(enclaveKey, material: .secureEnclave(reference))
        }
        #endif
        return try generateInMemory()
    }

    /// A key kept in memory, the form every platform can make (tests and tools).
    package static func generateInMemory() throws -> DPoPKey {
        let key = try PlatformPrivateKey(generating: .es256)
        return try DPoPKey(key, material: .pkcs8(try key.pkcs8DER()))
    }

    /// The key a session stored.
    /// - Throws: `reauthenticationRequired` when `material` is no usable P-256 key here (not a
    ///   P-256 PKCS #8 key; a Secure Enclave this device does not have or that lost the key):
    ///   tokens bound to a key that is gone cannot be used, and are never sent unbound.
    package init(material: Material) throws {
        let key: any PrivateSigningKey
        do {
            switch material {
            case .pkcs8(let der):
                let imported = try PKCS8PrivateKey(der: der)
                guard imported.algorithm == .es256 else { throw Self.unusable }
                key = try PlatformPrivateKey(imported)
            case .secureEnclave(let reference):
                #if !canImport(CLibCrypto) && canImport(CryptoKit) && canImport(Security)
                key = try ApplePrivateKey(secureEnclaveReference: reference)
                #else
                _ = reference
                throw Self.unusable
                #endif
            }
        } catch {
            throw Self.unusable
        }
        try self.init(key, material: material)
    }

    /// The software key a session stored as PKCS #8 (see ``init(material:)``).
    package init(pkcs8: Data) throws {
        try self.init(material: .pkcs8(pkcs8))
    }

    private init(_ key: any PrivateSigningKey, material: Material) throws {
        guard case .p256(let x, let y) = try key.publicKey() else { throw Self.unusable }
        self.key = key
        self.material = material
        self.x = Base64URL.encode(x)
        self.y = Base64URL.encode(y)
    }

    /// The PKCS #8 bytes of a key kept in memory; nil for a Secure Enclave key.
    package var pkcs8: Data? {
        guard case .pkcs8(let der) = material else { return nil }
        return der
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

    /// What `dump` shows: the ``description``; the key's bytes would otherwise be listed one by one.
    package var customMirror: Mirror { Mirror(self, children: ["key": description], displayStyle: .struct) }
}
