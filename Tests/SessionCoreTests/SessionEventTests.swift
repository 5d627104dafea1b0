import ClientTestSupport
import Foundation
import SessionCore
import SessionTesting
import XCTest

/// The session's own events: a refresh and a loss are told as they happen, whichever call met
/// them; a sign-in or a sign-out the app asked for is not an event.
final class SessionEventTests: XCTestCase {
    /// Collects events; the handler runs on the client, so a lock is all it needs.
    private final class Events: Sendable {
        private let events = Locked<[String]>([])
        var names: [String] { events.value }
        func record(_ event: SessionEvent) {
            let name = switch event {
            case .tokensRefreshed: "tokensRefreshed"
            case .sessionLost(let error): "sessionLost(\(error.code.rawValue))"
            }
            events.withLock { $0.append(name) }
        }
    }

    private func signedIn(store: RecordingStore = RecordingStore()) async throws -> (SessionClient, FakeProvider, Events) {
        let provider = try FakeProvider()
        let client = try makeClient(provider, store: store)
        let events = Events()
        await client.setEventHandler { events.record($0) }
        _ = try await client.signIn(agent: provider)
        XCTAssertEqual(events.names, [], "a sign-in is the call's own outcome")
        return (client, provider, events)
    }

    func testARefreshIsToldWhicheverCallNeededIt() async throws {
        let (client, provider, events) = try await signedIn()
        provider.clock.advance(by: 3600)
        _ = try await client.userInfo()
        XCTAssertEqual(events.names, ["tokensRefreshed"])
        _ = try await client.refresh()
        XCTAssertEqual(events.names, ["tokensRefreshed", "tokensRefreshed"])
    }

    func testARefusedRefreshIsALostSession() async throws {
        let (client, provider, events) = try await signedIn()
        provider.edit { $0.handlers["/token"] = { _ in FakeProvider.json(["error": "invalid_grant"], status: 400) } }
        provider.clock.advance(by: 3600)
        await assertSessionError(.reauthenticationRequired) { try await client.userInfo() }
        XCTAssertEqual(events.names, ["sessionLost(reauthenticationRequired)"])
    }

    func testAStoreThatCannotSaveTheRefreshedTokensIsALostSession() async throws {
        let store = RecordingStore()
        let (client, _, events) = try await signedIn(store: store)
        store.failSaves(afterSucceeding: 1) // the in-flight mark, then not the new tokens
        await assertSessionError(.storageFailed) { try await client.refresh() }
        XCTAssertEqual(events.names, ["sessionLost(storageFailed)"])
    }

    func testASignOutIsNoEventAndAServerErrorKeepsTheSession() async throws {
        let (client, provider, events) = try await signedIn()
        provider.edit { $0.handlers["/token"] = { _ in HTTPResponse(status: 503) } }
        _ = try? await client.refresh()
        let kept = await client.tokens
        XCTAssertNotNil(kept, "a 5xx keeps the session")
        try await client.signOut()
        XCTAssertEqual(events.names, [])
    }
}
