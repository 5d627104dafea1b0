import Foundation

/// A server's DPoP nonce (RFC 9449 §8, §9): the `DPoP-Nonce` header it sends, which the next
/// proof to it must carry.
package enum DPoPNonce {
    /// The header that carries it.
    package static let header = "DPoP-Nonce"
    /// The longest nonce taken: a server's nonce is a short token, and a longer one would only
    /// grow every proof.
    static let maximumLength = 512

    /// The nonce `value` holds: `1*NQCHAR` (printable ASCII without `"` and `\`), at most
    /// ``maximumLength`` bytes; nil for anything else, which is ignored as if no nonce came.
    package static func parse(_ value: String?) -> String? {
        guard let value, !value.isEmpty, value.utf8.count <= maximumLength,
              value.utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E && $0 != 0x22 && $0 != 0x5C }) else { return nil }
        return value
    }
}
