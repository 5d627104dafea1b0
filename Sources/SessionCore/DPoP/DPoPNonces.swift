import Foundation

/// The DPoP nonce each server gave last (RFC 9449 §8, §9), by origin, for one session.
struct DPoPNonces {
    /// The servers whose nonces are remembered at most; a nonce from one more server makes the
    /// session forget them all (a forgotten nonce costs one request more).
    static let remembered = 64

    private var byOrigin: [String: String] = [:]

    /// The nonce `url`'s server gave last, if any.
    func nonce(for url: URL) -> String? {
        byOrigin.isEmpty ? nil : URLRules.origin(url).flatMap { byOrigin[$0] }
    }

    /// Remembers `nonce` as the one `url`'s server gave last; true when it is new.
    mutating func learn(_ nonce: String, from url: URL) -> Bool {
        guard let origin = URLRules.origin(url), !Exact.equal(byOrigin[origin], nonce) else { return false }
        if byOrigin[origin] == nil, byOrigin.count >= Self.remembered { byOrigin.removeAll() }
        byOrigin[origin] = nonce
        return true
    }
}
