import Foundation

/// What a ``SessionClient`` holds of its session at any moment — the current tokens, the session's
/// epoch, the DPoP key loaded for them, and the stored version last seen — with the transitions
/// that change it. Work that awaits (a refresh, a sign-in, a store write) notes the ``epoch`` it
/// began in and writes back only while ``isStill(_:)``: once the session ended, nothing started
/// before can bring tokens back.
struct SessionState {
    /// A span of the session between two ends; work remembers the one it began in.
    struct Epoch: Equatable, Sendable {
        fileprivate let number: Int
    }

    /// The tokens of the session; nil when signed out.
    private(set) var tokens: SessionTokens?
    private var number = 0
    /// The DPoP key of ``tokens``, as last read from them: reading one is costly (libcrypto's
    /// decoders), so a request does not pay for it each time.
    private(set) var loadedDPoPKey: DPoPKey?
    /// The stamp of the shared store's session last found to be this account's.
    private(set) var seenStamp: StoredSessionStamp?
    /// When a store read across the network was last read or written here.
    private(set) var checkedAt: Date?

    /// The epoch the session is in now.
    var epoch: Epoch { Epoch(number: number) }

    /// True while the session is still in `epoch`: it has not ended since.
    func isStill(_ epoch: Epoch) -> Bool { number == epoch.number }

    /// True while the current tokens are still `earlier`: nothing replaced or ended them since.
    func holds(_ earlier: SessionTokens) -> Bool { tokens?.holdsSameTokens(as: earlier) ?? false }

    /// `tokens` become the session's, as saved or read from the store at `now`. A DPoP key loaded
    /// for other key material is forgotten.
    mutating func adopt(_ tokens: SessionTokens?, at now: Date) {
        if tokens?.dpopKeyMaterial != self.tokens?.dpopKeyMaterial { loadedDPoPKey = nil }
        self.tokens = tokens
        checkedAt = now
    }

    /// The session ends: a new epoch, without tokens, key or anything seen of the store.
    mutating func end() {
        number += 1
        tokens = nil
        loadedDPoPKey = nil
        seenStamp = nil
        checkedAt = nil
    }

    /// The key read from the current tokens' material.
    mutating func keep(_ key: DPoPKey?) {
        loadedDPoPKey = key
    }

    /// The store's session of `stamp` was found to be this account's.
    mutating func saw(_ stamp: StoredSessionStamp) {
        seenStamp = stamp
    }

    /// The store was read at `now` on the fresh path.
    mutating func checked(at now: Date) {
        checkedAt = now
    }
}
