import Foundation

/// AES-256-GCM with a fresh random nonce, in one byte string: what the package seals at rest or
/// hands to a browser (a pending sign-in, a stored row). The nonce travels in front of the
/// ciphertext and its tag; the associated data says what the sealed bytes are for, so a sealed
/// value moved elsewhere does not open there.
package enum SealedBox {
    private static let nonceSize = 12
    private static let tagSize = 16

    /// `plaintext` sealed under `key` (32 bytes), bound to `associatedData`: nonce, ciphertext, tag.
    /// - Throws: `cryptoFailure` when the platform cannot draw a nonce or seal.
    package static func seal(_ plaintext: Data, key: Data, associatedData: Data) throws -> Data {
        let nonce = try PlatformCrypto.randomBytes(nonceSize)
        return nonce + (try PlatformCryptoBackend.sealAES256GCM(key: key, nonce: nonce, plaintext: plaintext, authenticating: associatedData))
    }

    /// What ``seal(_:key:associatedData:)`` sealed; nil when `sealed` was not sealed under `key`
    /// for `associatedData`, was changed, or is too short to be sealed at all. The tag is checked
    /// by the platform's AES-GCM, in constant time.
    package static func open(_ sealed: Data, key: Data, associatedData: Data) throws -> Data? {
        guard sealed.count >= nonceSize + tagSize else { return nil }
        let start = sealed.startIndex
        return try PlatformCryptoBackend.openAES256GCM(key: key, nonce: sealed[start..<start + nonceSize], sealed: sealed[(start + nonceSize)...],
                                                       authenticating: associatedData)
    }
}
