import Foundation

/// The cryptographic checks the core makes before anything reaches the platform's backend
/// (``PlatformCryptoBackend``): key shapes and sizes, signature lengths.
package enum PlatformCrypto {
    /// SHA-256 of `data`.
    package static func sha256(_ data: Data) throws -> Data {
        try PlatformCryptoBackend.sha256(data)
    }

    /// The first `count` bytes of the SHA-256 of `text`'s UTF-8, in lowercase hex: names derived
    /// from an identity (session and lock files), and digests that tell values apart without
    /// showing them.
    package static func hexDigest(of text: String, bytes count: Int) throws -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(2 * count)
        for byte in try sha256(Data(text.utf8)).prefix(count) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// `count` bytes from the system CSPRNG.
    package static func randomBytes(_ count: Int) throws -> Data {
        try PlatformCryptoBackend.randomBytes(count)
    }

    /// True when `signature` is a valid `algorithm` signature of `message` under `key`.
    /// Throws ``SessionError`` `cryptoFailure` when the key cannot be used at all.
    package static func verify(_ algorithm: JWSAlgorithm, key: JSONWebKey, message: Data, signature: Data) throws -> Bool {
        switch algorithm {
        case .rs256:
            guard Exact.equal(key.kty, "RSA"), let n = key.n.flatMap(Base64URL.decode), let e = key.e.flatMap(Base64URL.decode),
                  !n.isEmpty, !e.isEmpty else {
                throw failure("the RSA key is incomplete")
            }
            if let problem = RSAKeyPolicy.problem(modulus: n, exponent: e) { throw failure(problem) }
            return try PlatformCryptoBackend.verifyRS256(modulus: n, exponent: e, message: message, signature: signature)
        case .es256:
            guard Exact.equal(key.kty, "EC"), Exact.equal(key.crv, "P-256"), let x = key.x.flatMap(Base64URL.decode), let y = key.y.flatMap(Base64URL.decode),
                  x.count == 32, y.count == 32 else {
                throw failure("the EC key is not a P-256 key")
            }
            // JWS carries r || s (RFC 7518 §3.4); anything else is not a valid signature.
            guard signature.count == 64 else { return false }
            return try PlatformCryptoBackend.verifyES256(x: x, y: y, message: message, rawSignature: signature)
        }
    }

    /// The private key `pkcs8` holds, imported into the platform's crypto library.
    /// - Throws: ``SessionError`` `invalidConfiguration` when the library refuses it.
    static func importPrivateKey(_ pkcs8: PKCS8PrivateKey) throws -> any PrivateSigningKey {
        #if canImport(CLibCrypto)
        try LibCryptoPrivateKey(pkcs8)
        #elseif canImport(CryptoKit) && canImport(Security)
        try ApplePrivateKey(pkcs8)
        #endif
    }

    package static func failure(_ why: String) -> SessionError {
        SessionError(.cryptoFailure, process: .authentication, message: why)
    }
}
