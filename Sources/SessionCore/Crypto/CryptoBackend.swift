import Foundation

/// The seam between SessionService and a platform's cryptography. Everything the package
/// verifies, hashes or draws at random goes through the ``PlatformCryptoBackend`` this file
/// selects: ``LibCryptoBackend`` (OpenSSL 3's libcrypto) on Linux, ``AppleCryptoBackend``
/// (CryptoKit and Security) on Apple platforms. Private keys, which sign, live in the same
/// libraries behind ``PrivateSigningKey``: ``LibCryptoPrivateKey`` and ``ApplePrivateKey``, imported
/// from a client's PKCS #8 key file here and generated for test providers in SessionTesting. No
/// other file of the core calls a crypto library.
package protocol CryptoBackend {
    /// SHA-256 of `data`.
    static func sha256(_ data: Data) throws -> Data
    /// `count` bytes from the system CSPRNG.
    static func randomBytes(_ count: Int) throws -> Data
    /// True when `signature` is an RSASSA-PKCS1-v1_5 SHA-256 signature of `message` under the
    /// public key (`modulus`, `exponent`), both big-endian magnitudes.
    static func verifyRS256(modulus: Data, exponent: Data, message: Data, signature: Data) throws -> Bool
    /// True when `rawSignature` (r || s, 32 bytes each) is an ECDSA P-256 SHA-256 signature of
    /// `message` under the public point (`x`, `y`).
    static func verifyES256(x: Data, y: Data, message: Data, rawSignature: Data) throws -> Bool
    /// AES-256-GCM: `plaintext` sealed under `key` (32 bytes) with `nonce` (12 bytes),
    /// authenticating `authenticatedData`; the ciphertext followed by the 16-byte tag.
    static func sealAES256GCM(key: Data, nonce: Data, plaintext: Data, authenticating authenticatedData: Data) throws -> Data
    /// Opens what ``sealAES256GCM(key:nonce:plaintext:authenticating:)`` sealed; nil when the tag
    /// does not verify (another key, another nonce or authenticated data, a changed byte).
    static func openAES256GCM(key: Data, nonce: Data, sealed: Data, authenticating authenticatedData: Data) throws -> Data?
}

#if canImport(CLibCrypto)
/// The backend of the platform this was built for.
package typealias PlatformCryptoBackend = LibCryptoBackend
#elseif canImport(CryptoKit) && canImport(Security)
/// The backend of the platform this was built for.
package typealias PlatformCryptoBackend = AppleCryptoBackend
#endif
