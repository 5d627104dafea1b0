import Foundation
import SessionCore

/// A token store that records every save and can be told to fail loading, saving or clearing.
package final class RecordingStore: TokenStore, Sendable {
    private struct State: Sendable {
        var stored: SessionTokens?
        var saves: [SessionTokens] = []
        /// Saves still allowed before every further one fails; nil while saves succeed.
        var savesBeforeFailing: Int?
        var failClears = false
        var failLoads = false
    }

    private let state: Locked<State>

    package init(_ tokens: SessionTokens? = nil) { state = Locked(State(stored: tokens)) }

    package var saved: [SessionTokens] { state.withLock { $0.saves } }
    package var contents: SessionTokens? { state.withLock { $0.stored } }
    package func failNextSaves() { failSaves(afterSucceeding: 0) }
    /// Lets `count` more saves succeed, then fails every one after.
    package func failSaves(afterSucceeding count: Int) { state.withLock { $0.savesBeforeFailing = count } }
    package func failNextClears() { state.withLock { $0.failClears = true } }
    /// Whether every load fails as a store holding something unreadable does.
    package var failsLoads: Bool {
        get { state.withLock { $0.failLoads } }
        set { state.withLock { $0.failLoads = newValue } }
    }

    package func load() async throws -> SessionTokens? {
        if failsLoads { throw SessionError(.storageCorrupt, process: .configuration, message: "unreadable (test)") }
        return contents
    }
    package func save(_ tokens: SessionTokens) async throws {
        try state.withLock { state in
            if let remaining = state.savesBeforeFailing {
                guard remaining > 0 else { throw SessionError(.storageFailed, process: .configuration, message: "disk full (test)") }
                state.savesBeforeFailing = remaining - 1
            }
            state.saves.append(tokens)
            state.stored = tokens
        }
    }
    package func clear() async throws {
        try state.withLock { state in
            if state.failClears { throw SessionError(.storageFailed, process: .configuration, message: "read-only disk (test)") }
            state.stored = nil
        }
    }
}
