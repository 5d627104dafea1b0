#if !canImport(CLibCrypto) && canImport(CryptoKit) && canImport(Security)
import CryptoKit
import Foundation
import Security

extension ApplePrivateKey {
    /// A fresh P-256 key in the Secure Enclave, or nil where there is none (the simulator, a Mac
    /// without one) or it refuses: the caller then makes a key in memory.
    ///
    /// The key signs from the first unlock after a restart, as the session's Keychain item is read
    /// by default: with CryptoKit's default (only while unlocked) a refresh in the background would
    /// fail while the device is locked.
    package static func secureEnclaveP256() -> ApplePrivateKey? {
        guard SecureEnclave.isAvailable,
              let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, .privateKeyUsage, nil),
              let key = try? SecureEnclave.P256.Signing.PrivateKey(accessControl: access) else { return nil }
        return ApplePrivateKey(algorithm: .es256, key: .secureEnclaveP256(key))
    }

    /// The Secure Enclave key `reference` names (its `dataRepresentation`, as stored).
    /// - Throws: when this device's Secure Enclave does not hold it (another device, a restored
    ///   backup, a reset device).
    package convenience init(secureEnclaveReference reference: Data) throws {
        guard SecureEnclave.isAvailable, let key = try? SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: reference) else {
            throw PlatformCrypto.failure("the Secure Enclave does not hold this key")
        }
        self.init(algorithm: .es256, key: .secureEnclaveP256(key))
    }

    /// The reference to store for a Secure Enclave key (the key itself never leaves it); nil for
    /// any other key.
    package var secureEnclaveReference: Data? {
        withKey { key in
            guard case .secureEnclaveP256(let key) = key else { return nil }
            return key.dataRepresentation
        }
    }
}
#endif
