import ClientTestSupport
import Foundation
import SessionCore
import SessionTesting
import XCTest

/// A process stored its session marked as refreshing and died before saving the answer. Where
/// the provider can tell whether the refresh token is still good — introspection (RFC 7662) for a
/// confidential client, or a reuse interval it is known to honour — the next process goes on with
/// the session instead of ending it; where it cannot, the session ends as before, and the event
/// says why.
final class InterruptedRefreshTests: XCTestCase {
    private static let secret = "introspection-secret"

    private struct Fleet {
        let provider: LocalProvider
        let configuration: SessionConfiguration
        let directory: URL

        /// A process on the shared session file.
        func node() throws -> SessionClient {
            SessionClient(configuration: configuration, store: try FileTokenStore(configuration: configuration, directory: directory),
                          transport: CurlTransport(timeout: 5))
        }
    }

    private func fleet(confidential: Bool, providerReuseInterval: TimeInterval? = nil, clientReuseInterval: TimeInterval? = nil) throws -> Fleet {
        let authentication: ClientAuthentication = confidential ? .clientSecretBasic(Self.secret) : .none
        let redirect = URL(string: "http://127.0.0.1/callback")!
        let provider = try LocalProvider(clock: SystemClock()) { options in
            options.clients = [LocalProvider.Client(id: "fleet-app", redirectURIs: [redirect], authentication: authentication)]
            options.refreshTokenReuseInterval = providerReuseInterval
        }
        addTeardownBlock { provider.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("interrupted-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let configuration = try SessionConfiguration(issuer: provider.issuer, clientID: "fleet-app", redirectURI: redirect,
                                                     clientAuthentication: authentication, refreshTokenReuseInterval: clientReuseInterval)
        return Fleet(provider: provider, configuration: configuration, directory: directory)
    }

    /// A process signs in, marks its session as refreshing and dies: before its request left
    /// (`spent` false), or after the provider answered it (`spent` true: the answer was lost).
    private func interruptedRefresh(_ fleet: Fleet, spent: Bool) async throws -> SessionTokens {
        let dying = try fleet.node()
        let tokens = try await dying.signIn(agent: HeadlessUserAgent())
        try await FileTokenStore(configuration: fleet.configuration, directory: fleet.directory).save(tokens.marked(.refresh, at: Date()))
        if spent {
            let lostAnswer = SessionClient(configuration: fleet.configuration, transport: CurlTransport(timeout: 5))
            try await lostAnswer.setTokens(tokens)
            _ = try await lostAnswer.refresh()
        }
        return tokens
    }

    private func lostSessions(of client: SessionClient) async -> Locked<[SessionError]> {
        let lost = Locked<[SessionError]>([])
        await client.setEventHandler { event in
            if case .sessionLost(let error) = event { lost.withLock { $0.append(error) } }
        }
        return lost
    }

    func testIntrospectionSaysTheRefreshTokenWasNotSpentAndTheSessionGoesOn() async throws {
        let fleet = try fleet(confidential: true)
        let tokens = try await interruptedRefresh(fleet, spent: false)
        let survivor = try fleet.node()
        let lost = await lostSessions(of: survivor)
        let restored = try await survivor.loadStoredSession()
        XCTAssertEqual(restored?.refreshToken, tokens.refreshToken, "the session goes on")
        XCTAssertNil(restored?.inFlight)
        XCTAssertEqual(fleet.provider.requests(to: .introspection).count, 1)
        XCTAssertEqual(lost.value.count, 0)
        let refreshed = try await survivor.refresh()
        XCTAssertNotEqual(refreshed.refreshToken, tokens.refreshToken)
        XCTAssertEqual(fleet.provider.refreshTokenReuses, 0, "the token had not been spent")
    }

    func testIntrospectionSaysItWasSpentAndTheSessionEndsSayingSo() async throws {
        let fleet = try fleet(confidential: true)
        _ = try await interruptedRefresh(fleet, spent: true)
        let survivor = try fleet.node()
        let lost = await lostSessions(of: survivor)
        let restored = try await survivor.loadStoredSession()
        XCTAssertNil(restored)
        XCTAssertTrue(lost.value.first?.message.contains("no longer active") == true, lost.value.first?.message ?? "no event")
        XCTAssertEqual(fleet.provider.refreshTokenReuses, 0, "the spent token was not sent again")
    }

    func testWithinTheProvidersReuseIntervalARefreshWhoseAnswerWasLostIsMadeAgain() async throws {
        let fleet = try fleet(confidential: false, providerReuseInterval: 60, clientReuseInterval: 60)
        _ = try await interruptedRefresh(fleet, spent: true)
        let survivor = try fleet.node()
        let restored = try await survivor.loadStoredSession()
        XCTAssertNotNil(restored)
        let refreshed = try await survivor.refresh()
        XCTAssertNotNil(refreshed.refreshToken)
        XCTAssertEqual(fleet.provider.refreshTokenReuses, 0, "within the interval the provider honoured the token again")
        _ = try await survivor.userInfo()
    }

    /// A stored mark whose time no process could have written (here long before any clock) is a
    /// corrupt session, said as one, not a number for the reuse rule to reckon with.
    func testARefreshMarkFromNoPossibleTimeIsACorruptSession() async throws {
        let fleet = try fleet(confidential: false, providerReuseInterval: 60, clientReuseInterval: 60)
        _ = try await interruptedRefresh(fleet, spent: false)
        let file = try FileTokenStore(configuration: fleet.configuration, directory: fleet.directory).fileURL
        let stored = try String(contentsOf: file, encoding: .utf8)
        let forged = stored.replacingOccurrences(of: #""inFlightSince":[-0-9.e+E]+"#, with: #""inFlightSince":-1e300"#, options: .regularExpression)
        XCTAssertNotEqual(forged, stored)
        try Data(forged.utf8).write(to: file)
        await assertSessionError(.storageCorrupt) { _ = try await fleet.node().loadStoredSession() }
    }

    func testWhereTheProviderCannotTellTheSessionEndsAndTheEventSaysWhy() async throws {
        let fleet = try fleet(confidential: false)
        _ = try await interruptedRefresh(fleet, spent: false)
        let survivor = try fleet.node()
        let lost = await lostSessions(of: survivor)
        let restored = try await survivor.loadStoredSession()
        XCTAssertNil(restored, "unknown: ended as before, rather than risk the grant")
        XCTAssertTrue(lost.value.first?.message.contains("cannot say whether it was spent") == true, lost.value.first?.message ?? "no event")
        XCTAssertEqual(fleet.provider.requests(to: .introspection).count, 0, "a public client does not introspect")
    }
}
