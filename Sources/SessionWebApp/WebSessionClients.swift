import Foundation
import SessionCore

/// The clients this instance made for the sessions it served, each with when it was last used
/// here. A session another instance ends, sweeps or is the only one to serve is never met here
/// again, so a client left unused for the idle timeout is let go: its session has expired or is
/// alive elsewhere, and a request that brings it back gets a new client from the store. Letting
/// go waits until the count has doubled since the last time, so it costs O(1) per session.
struct WebSessionClients {
    private struct Entry {
        let client: SessionClient
        var lastUsed: Date
    }

    private var entries: [WebSessionID: Entry] = [:]
    /// How many were kept after the last pruning.
    private var keptAtLastPruning = 0
    /// Below this many, nothing is pruned as clients are added.
    private static let leastWorthPruning = 64

    /// The client of `id`, noted as used at `now`; nil when this instance holds none.
    mutating func use(_ id: WebSessionID, at now: Date) -> SessionClient? {
        guard var entry = entries[id] else { return nil }
        entry.lastUsed = now
        entries[id] = entry
        return entry.client
    }

    /// Keeps `client` for `id`, used at `now`; first lets go of the clients unused since
    /// `now - idleTimeout` when the count has doubled since that was last done.
    mutating func keep(_ client: SessionClient, for id: WebSessionID, at now: Date, idleTimeout: TimeInterval) {
        if entries.count >= max(Self.leastWorthPruning, 2 * keptAtLastPruning) {
            prune(unusedSince: now.addingTimeInterval(-idleTimeout))
        }
        entries[id] = Entry(client: client, lastUsed: now)
    }

    /// Lets go of the client of `id`.
    mutating func remove(_ id: WebSessionID) {
        entries[id] = nil
    }

    /// Lets go of every client last used here before `cutoff`.
    mutating func prune(unusedSince cutoff: Date) {
        entries = entries.filter { $0.value.lastUsed >= cutoff }
        keptAtLastPruning = entries.count
    }
}
