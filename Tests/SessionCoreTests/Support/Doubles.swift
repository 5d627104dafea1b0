import Foundation
import SessionCore
import SessionTesting
import XCTest

/// A token store that records every save and can be told to fail loading, saving or clearing.
final class RecordingStore: TokenStore, Sendable {
    private struct State: Sendable {
        var stored: SessionTokens?
        var saves: [SessionTokens] = []
        /// Saves still allowed before every further one fails; nil while saves succeed.
        var savesBeforeFailing: Int?
        var failClears = false
        var failLoads = false
    }

    private let state: Locked<State>

    init(_ tokens: SessionTokens? = nil) { state = Locked(State(stored: tokens)) }

    var saved: [SessionTokens] { state.withLock { $0.saves } }
    var contents: SessionTokens? { state.withLock { $0.stored } }
    func failNextSaves() { failSaves(afterSucceeding: 0) }
    /// Lets `count` more saves succeed, then fails every one after.
    func failSaves(afterSucceeding count: Int) { state.withLock { $0.savesBeforeFailing = count } }
    func failNextClears() { state.withLock { $0.failClears = true } }
    /// Whether every load fails as a store holding something unreadable does.
    var failsLoads: Bool {
        get { state.withLock { $0.failLoads } }
        set { state.withLock { $0.failLoads = newValue } }
    }

    func load() async throws -> SessionTokens? {
        if failsLoads { throw SessionError(.storageCorrupt, process: .configuration, message: "unreadable (test)") }
        return contents
    }
    func save(_ tokens: SessionTokens) async throws {
        try state.withLock { state in
            if let remaining = state.savesBeforeFailing {
                guard remaining > 0 else { throw SessionError(.storageFailed, process: .configuration, message: "disk full (test)") }
                state.savesBeforeFailing = remaining - 1
            }
            state.saves.append(tokens)
            state.stored = tokens
        }
    }
    func clear() async throws {
        try state.withLock { state in
            if state.failClears { throw SessionError(.storageFailed, process: .configuration, message: "read-only disk (test)") }
            state.stored = nil
        }
    }
}

/// A one-shot signal a test can await, for holding a fake response until the test says go.
actor Signal {
    private var raised = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func raise() {
        raised = true
        waiters.forEach { $0.resume() }
        waiters.removeAll()
    }

    func wait() async {
        if raised { return }
        await withCheckedContinuation { waiters.append($0) }
    }
}

/// Asserts that `body` throws a SessionError with `code` (and `process` when given) and returns it.
@discardableResult
func assertSessionError<T>(_ code: SessionError.Code, process: SessionError.Process? = nil,
                           file: StaticString = #filePath, line: UInt = #line,
                           _ body: () async throws -> T) async -> SessionError? {
    do {
        let value = try await body()
        XCTFail("expected \(code), got \(value)", file: file, line: line)
        return nil
    } catch let error as SessionError {
        XCTAssertEqual(error.code, code, "\(error)", file: file, line: line)
        if let process { XCTAssertEqual(error.process, process, "\(error)", file: file, line: line) }
        return error
    } catch {
        XCTFail("expected SessionError \(code), got \(error)", file: file, line: line)
        return nil
    }
}

/// A client wired to `provider` with its clock.
func makeClient(_ provider: FakeProvider, store: TokenStore = InMemoryTokenStore(), logger: SessionLogger = SilentLogger(),
                configuration: SessionConfiguration? = nil) throws -> SessionClient {
    SessionClient(configuration: try configuration ?? FakeProvider.configuration(), store: store, transport: provider,
                  clock: provider.clock, logger: logger)
}
