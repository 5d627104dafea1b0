#if canImport(CLibCrypto)
import CLibCrypto
import Foundation

/// Public keys imported into libcrypto, kept for the next verification with the same key: a
/// provider's signing key comes back with every ID token, a DPoP client's key with every proof,
/// and importing one (building the curve's group, checking the point or the modulus) costs about
/// as much as the verification itself. At most ``capacity`` keys are kept; one more clears them
/// all (a forgotten key is imported again). Only public parameters are held.
package enum LibCryptoPublicKeys {
    /// The most keys kept at once.
    package static let capacity = 64

    // Keyed by plain byte arrays: `Data` keeps its storage behind tagged references, which
    // LeakSanitizer (the fuzz targets) cannot follow from a global and reports as leaked.
    private static let imported = Locked<[[UInt8]: LibCryptoPublicKey]>([:])

    /// The key whose public parameters are `parameters` (any bytes that name them exactly), made
    /// by `importKey` when it is not kept; `importKey` returns an owned `EVP_PKEY`.
    static func key(for parameters: [UInt8], importKey: () throws -> OpaquePointer) throws -> LibCryptoPublicKey {
        if let kept = imported.withLock({ $0[parameters] }) { return kept }
        // Imported outside the lock: two callers may both import a new key; the second one kept wins.
        let key = LibCryptoPublicKey(taking: try importKey())
        imported.withLock { keys in
            if keys.count >= capacity { keys.removeAll() }
            keys[parameters] = key
        }
        return key
    }

    /// How many keys are kept now.
    package static var count: Int { imported.withLock { $0.count } }
}

/// One imported public key (an `EVP_PKEY`), used by one verification at a time and freed when
/// the last holder lets it go.
final class LibCryptoPublicKey: Sendable {
    private let key: Locked<Handle>

    /// `@unchecked Sendable`: the pointer is used only inside the key's `Locked`, and freed once,
    /// in `deinit`.
    private struct Handle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// Takes ownership of `pointer`.
    init(taking pointer: OpaquePointer) {
        key = Locked(Handle(pointer: pointer))
    }

    deinit {
        if let crypto = try? LibCrypto.functions() { key.withLock { crypto.EVP_PKEY_free($0.pointer) } }
    }

    /// Runs `body` on the `EVP_PKEY`, under the key's lock; the pointer must not escape.
    func withKey<T>(_ body: (OpaquePointer) throws -> T) rethrows -> T {
        try key.withLock { try body($0.pointer) }
    }
}
#endif
