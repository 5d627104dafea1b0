import Foundation

/// Single-use random values for `state`, `nonce` and a client assertion's `jti`: 32 bytes from the system CSPRNG.
package enum RandomToken {
    package static func generate() throws -> String {
        Base64URL.encode(try PlatformCrypto.randomBytes(32))
    }
}
