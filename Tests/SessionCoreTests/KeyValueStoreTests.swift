import ClientTestSupport
import Foundation
import SessionCore
import SessionTesting
import XCTest

// BEGIN the example of the article "Writing a token store": Tests/DocSamples/check.sh fails when
// it and the article's block differ.

/// What the store needs of a key-value service several processes share (Redis, etcd, a table):
/// values, and a lease that dies with its holder or within a bound its holder renews.
protocol SharedKeyValues: Sendable {
    func value(for key: String) async throws -> Data?
    func setValue(_ value: Data, for key: String) async throws
    func removeValue(for key: String) async throws
    func withLease<T: Sendable>(on key: String, _ body: @Sendable () async throws -> T) async throws -> T
}

/// One session in a shared key-value service: every process of the app that uses `key` uses
/// the same session, refreshes it once between them, and notices a sign-out made by another.
struct KeyValueTokenStore: TokenStore {
    let values: any SharedKeyValues
    let key: String

    func load() async throws -> SessionTokens? {
        let stored: Data?
        do {
            stored = try await values.value(for: key)
        } catch {
            throw SessionError(.storageFailed, process: .configuration, message: "cannot read the session at \(key)")
        }
        guard let stored else { return nil }
        do {
            return try JSONDecoder().decode(SessionTokens.self, from: stored)
        } catch {
            throw SessionError(.storageCorrupt, process: .configuration, message: "what is stored at \(key) is no session")
        }
    }

    func save(_ tokens: SessionTokens) async throws {
        do {
            try await values.setValue(try JSONEncoder().encode(tokens), for: key)
        } catch {
            throw SessionError(.storageFailed, process: .configuration, message: "cannot save the session at \(key)")
        }
    }

    func clear() async throws {
        do {
            try await values.removeValue(for: key)
        } catch {
            throw SessionError(.storageFailed, process: .configuration, message: "cannot delete the session at \(key)")
        }
    }

    // What makes it a shared store: other processes use it, a refresh takes the lease, and a
    // sign-out elsewhere is noticed within five seconds.
    var isShared: Bool { true }

    func withRefreshLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await values.withLease(on: key + ".refresh", body)
    }

    var changeDetection: StoredSessionChangeDetection { .reread(every: 5) }
}
// END the example of the article "Writing a token store".

/// The key-value service of the test: one process's memory standing in for Redis, its lease a
/// wait in line per key.
private final class MemoryKeyValues: SharedKeyValues {
    private let values = Locked<[String: Data]>([:])
    private let leases = LeaseLine()

    func value(for key: String) async throws -> Data? { values.value[key] }
    func setValue(_ value: Data, for key: String) async throws { values.withLock { $0[key] = value } }
    func removeValue(for key: String) async throws { _ = values.withLock { $0.removeValue(forKey: key) } }

    func withLease<T: Sendable>(on key: String, _ body: @Sendable () async throws -> T) async throws -> T {
        await leases.take(key)
        do {
            let value = try await body()
            await leases.release(key)
            return value
        } catch {
            await leases.release(key)
            throw error
        }
    }
}

/// Leases by key, handed over in arrival order.
private actor LeaseLine {
    private var held: Set<String> = []
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    func take(_ key: String) async {
        guard held.contains(key) else {
            held.insert(key)
            return
        }
        // Handed over by release(_:), which keeps the key held for this waiter.
        await withCheckedContinuation { waiting[key, default: []].append($0) }
    }

    func release(_ key: String) {
        guard let next = waiting[key]?.first else {
            held.remove(key)
            return
        }
        waiting[key]?.removeFirst()
        next.resume()
    }
}

/// The article's store, as two processes of an app use it against LocalProvider.
final class KeyValueStoreTests: XCTestCase {
    private func processes(clock: ManualClock) throws -> (LocalProvider, SessionClient, SessionClient) {
        let provider = try LocalProvider(clock: SystemClock())
        addTeardownBlock { provider.stop() }
        let configuration = try provider.configuration()
        let values = MemoryKeyValues()
        func process(_ clock: SessionClock) -> SessionClient {
            SessionClient(configuration: configuration, store: KeyValueTokenStore(values: values, key: "session/erika"),
                          transport: CurlTransport(timeout: 5), clock: clock)
        }
        return (provider, process(SystemClock()), process(clock))
    }

    func testAnExpiredSessionIsRefreshedOnceBetweenTheProcesses() async throws {
        let (provider, first, second) = try processes(clock: ManualClock())
        let tokens = try await first.signIn(agent: HeadlessUserAgent())
        try await first.setTokens(tokens.withExpiry(Date().addingTimeInterval(-60)))
        _ = try await second.loadStoredSession()
        let before = provider.requests(to: .token).count
        let seen = try await withThrowingTaskGroup(of: String.self) { group in
            for process in [first, second] {
                for _ in 0..<5 { group.addTask { try await process.validTokens().accessToken } }
            }
            var all: Set<String> = []
            for try await token in group { all.insert(token) }
            return all
        }
        XCTAssertEqual(provider.requests(to: .token).count - before, 1, "one refresh between the processes")
        XCTAssertEqual(seen.count, 1)
        XCTAssertEqual(provider.refreshTokenReuses, 0)
    }

    func testASignOutInOneProcessEndsTheOthersSessionWithinFiveSeconds() async throws {
        let clock = ManualClock()
        let (_, first, second) = try processes(clock: clock)
        _ = try await first.signIn(agent: HeadlessUserAgent())
        _ = try await second.loadStoredSession()
        try await first.signOut()
        clock.advance(by: 4)
        _ = try await second.validTokens()
        clock.advance(by: 1)
        await assertSessionError(.reauthenticationRequired) { _ = try await second.validTokens() }
    }
}
