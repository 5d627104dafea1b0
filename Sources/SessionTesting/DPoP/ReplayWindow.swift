import Foundation

/// The `jti`s a server has accepted within the replay window (RFC 9449 §11.1). Entries are
/// forgotten in the order they came, so a check costs the same however many proofs the window
/// holds (filtering the whole set on every proof made a busy provider slower with each request).
package struct ReplayWindow: Sendable {
    private var acceptedAt: [String: Date] = [:]
    private var arrivals: [(jti: String, at: Date)] = []
    private var oldest = 0

    /// An empty window.
    package init() {}

    /// How many `jti`s the window holds.
    package var remembered: Int { acceptedAt.count }

    /// Records `jti` as used at `now`; false when it was used within the last `window` seconds.
    package mutating func admit(_ jti: String, at now: Date, window: TimeInterval) -> Bool {
        while oldest < arrivals.count, now.timeIntervalSince(arrivals[oldest].at) > window {
            let expired = arrivals[oldest]
            if acceptedAt[expired.jti] == expired.at { acceptedAt[expired.jti] = nil }
            oldest += 1
        }
        if oldest >= 1024, oldest * 2 >= arrivals.count {
            arrivals.removeFirst(oldest)
            oldest = 0
        }
        guard acceptedAt[jti] == nil else { return false }
        acceptedAt[jti] = now
        arrivals.append((jti, now))
        return true
    }
}
