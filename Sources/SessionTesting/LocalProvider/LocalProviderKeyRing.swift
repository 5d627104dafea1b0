import Foundation
import SessionCore

/// The provider's signing keys: the one ID tokens are signed with now, and the ones its JWK Set
/// publishes. The two can differ on purpose: a key published ahead of use, an old key kept
/// published through a rollover, or a signing key no longer published (a stolen key, as a client
/// sees it).
struct LocalProviderKeyRing: Sendable {
    private(set) var signing: SigningKey
    private(set) var published: [SigningKey]

    init(_ key: SigningKey) {
        signing = key
        published = [key]
    }

    /// Signs with `key` from now on and publishes it after the keys already published.
    mutating func rotate(to key: SigningKey) {
        signing = key
        published.append(key)
    }

    /// Takes the key `keyID` out of the published set; true when it was there.
    mutating func unpublish(keyID: String) -> Bool {
        let before = published.count
        published.removeAll { $0.keyID == keyID }
        return published.count != before
    }
}
