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
            case .stepUpRequired(let stepUp): "stepUpRequired(\(stepUp.reason.rawValue))"
            }
            events.withLock { $0.append(name) }
        }
    }

    private func signedIn() async throws -> (SessionClient, LocalHarness, Events) {
        let harness = try makeLocalHarness()
        let events = Events()
        await harness.client.setEventHandler { events.record($0) }
        _ = try await harness.signIn(.login)
        XCTAssertEqual(events.names, [], "a sign-in is the call's own outcome")
        return (harness.client, harness, events)
    }

    func testARefreshIsToldWhicheverCallNeededIt() async throws {
        let (client, harness, events) = try await signedIn()
        harness.clock.advance(by: 3600)
        _ = try await client.userInfo()
        XCTAssertEqual(events.names, ["tokensRefreshed"])
        _ = try await client.refresh()
        XCTAssertEqual(events.names, ["tokensRefreshed", "tokensRefreshed"])
    }

    func testARefusedRefreshIsALostSession() async throws {
        let (client, harness, events) = try await signedIn()
        harness.provider.inject(.status(400, body: #"{"error":"invalid_grant"}"#), at: .token)
        harness.clock.advance(by: 3600)
        await assertSessionError(.reauthenticationRequired) { try await client.userInfo() }
        XCTAssertEqual(events.names, ["sessionLost(reauthenticationRequired)"])
    }

    func testAStoreThatCannotSaveTheRefreshedTokensIsALostSession() async throws {
        let (client, harness, events) = try await signedIn()
        harness.store.failSaves(afterSucceeding: 1) // the in-flight mark, then not the new tokens
        await assertSessionError(.storageFailed) { try await client.refresh() }
        XCTAssertEqual(events.names, ["sessionLost(storageFailed)"])
    }

    func testASignOutIsNoEventAndAServerErrorKeepsTheSession() async throws {
        let (client, harness, events) = try await signedIn()
        harness.provider.inject(.status(503), at: .token)
        _ = try? await client.refresh()
        let kept = await client.tokens
        XCTAssertNotNil(kept, "a 5xx keeps the session")
        try await client.signOut()
        XCTAssertEqual(events.names, [])
    }
}
