import Foundation

/// The provider's key set as the client keeps it: for a bounded lifetime, so that a key the
/// provider removed stops verifying, and with a bounded rate of reloads, so that tokens naming
/// unknown keys cannot make the client fetch the set again and again.
///
/// - Lifetime: the JWKS response's `Cache-Control: max-age`, clamped to
///   [``minimumLifetime``, ``maximumLifetime``]; ``defaultLifetime`` without one; the minimum
///   for `no-store` or `no-cache`.
/// - Reload: a token whose key is not in the set reloads it at most once per
///   ``reloadInterval``; sooner than that, the token is refused as naming an unknown key.
struct KeySetCache: Sendable {
    /// Five minutes: how long a key the provider removed may still verify, at most, when the
    /// provider asks for no caching.
    static let minimumLifetime: TimeInterval = 300
    /// One day: how long a key the provider removed may still verify, at most.
    static let maximumLifetime: TimeInterval = 86_400
    /// One hour, for a response that does not say.
    static let defaultLifetime: TimeInterval = 3600
    /// Thirty seconds between reloads for unknown keys.
    static let reloadInterval: TimeInterval = 30

    let keys: JSONWebKeySet
    let fetchedAt: Date
    let expiresAt: Date

    init(keys: JSONWebKeySet, fetchedAt: Date, cacheControl: String?) {
        self.init(keys: keys, fetchedAt: fetchedAt, expiresAt: fetchedAt.addingTimeInterval(Self.lifetime(cacheControl: cacheControl)))
    }

    /// A set fetched earlier, with the lifetime it was given then (from ``ProviderDocuments``).
    init(keys: JSONWebKeySet, fetchedAt: Date, expiresAt: Date) {
        self.keys = keys
        self.fetchedAt = fetchedAt
        self.expiresAt = expiresAt
    }

    /// The lifetime `cacheControl` (a `Cache-Control` field value) asks for, within the bounds.
    static func lifetime(cacheControl: String?) -> TimeInterval {
        var requested: TimeInterval?
        for directive in (cacheControl ?? "").split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if ASCII.equalIgnoringCase(parts[0], "no-store") || ASCII.equalIgnoringCase(parts[0], "no-cache") {
                requested = 0
                break
            }
            if ASCII.equalIgnoringCase(parts[0], "max-age"), parts.count == 2,
               let seconds = UInt64(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))) {
                requested = TimeInterval(seconds)
            }
        }
        return min(max(requested ?? defaultLifetime, minimumLifetime), maximumLifetime)
    }

    /// True when `cacheControl` says `no-store`: the response may be used, but not written down.
    static func forbidsStoring(cacheControl: String?) -> Bool {
        (cacheControl ?? "").split(separator: ",").contains { ASCII.equalIgnoringCase($0.trimmingCharacters(in: .whitespaces), "no-store") }
    }

    /// True while the set may be used without asking the provider again.
    func isFresh(at now: Date) -> Bool { now < expiresAt }

    /// True when a token naming an unknown key may reload the set now.
    func mayReload(at now: Date) -> Bool { now.timeIntervalSince(fetchedAt) >= Self.reloadInterval }
}
