import Foundation

#if canImport(CLibCrypto)
/// The private keys the platform's crypto library makes and holds: libcrypto on Linux, CryptoKit
/// and Security on Apple platforms. `PlatformPrivateKey(generating:)` makes a fresh one: RSA 2048
/// for RS256, P-256 for ES256 (the core's DPoP keys; test providers' signing keys).
package typealias PlatformPrivateKey = LibCryptoPrivateKey
#elseif canImport(CryptoKit) && canImport(Security)
/// The private keys the platform's crypto library makes and holds: libcrypto on Linux, CryptoKit
/// and Security on Apple platforms. `PlatformPrivateKey(generating:)` makes a fresh one: RSA 2048
/// for RS256, P-256 for ES256 (the core's DPoP keys; test providers' signing keys).
package typealias PlatformPrivateKey = ApplePrivateKey
#endif
