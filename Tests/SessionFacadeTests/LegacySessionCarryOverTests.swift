import Foundation
import LegacySessionReaders
import SessionCore
import SessionFacade
import SessionTesting
import XCTest

/// `carryOverLegacySession(from:)`: the first `initialize` without a session of its own adopts
/// the legacy SDK's, saves it, and only then removes the legacy copy.
final class LegacySessionCarryOverTests: XCTestCase {
    /// A legacy storage in memory that writes what is done to it into `steps`.
    private final class LegacyShelf: LegacySessionSource, @unchecked Sendable {
        // @unchecked Sendable: `state` is only touched through its Locked.
        private let state: Locked<(session: LegacySession?, steps: [String], readable: Bool, removable: Bool)>
        let steps: StepLog

        init(_ session: LegacySession?, steps: StepLog, readable: Bool = true, removable: Bool = true) {
            state = Locked((session, [], readable, removable))
            self.steps = steps
        }

        var name: String { "the test's shelf" }
        var session: LegacySession? { state.withLock { $0.session } }

        func legacySession() throws -> LegacySession? {
            steps.append("read")
            let (session, readable) = state.withLock { ($0.session, $0.readable) }
            guard readable else { throw SessionError.unreadableLegacySession("the test says so") }
            return session
        }

        func removeLegacySession() throws {
            steps.append("remove")
            guard state.withLock({ $0.removable }) else { throw SessionError.unreadableLegacySession("cannot remove") }
            state.withLock { $0.session = nil }
        }
    }

    final class StepLog: Sendable {
        private let steps = Locked<[String]>([])
        func append(_ step: String) { steps.withLock { $0.append(step) } }
        var all: [String] { steps.value }
    }

    /// A store that writes its saves into `steps`, and can refuse them.
    private actor StepStore: TokenStore {
        let steps: StepLog
        let refusesSaves: Bool
        var tokens: SessionTokens?

        init(steps: StepLog, refusesSaves: Bool = false) {
            self.steps = steps
            self.refusesSaves = refusesSaves
        }

        func load() async throws -> SessionTokens? { tokens }
        func save(_ tokens: SessionTokens) async throws {
            steps.append("save")
            if refusesSaves { throw SessionError(.storageFailed, process: .authentication, message: "the test's store refuses") }
            self.tokens = tokens
        }
        func clear() async throws { tokens = nil }
    }

    /// A service over `store`, and a legacy session the provider really issued (then forgotten by
    /// the harness's own store, as if another SDK held it).
    private func makeLegacy(store: (any TokenStore)? = nil) async throws -> (FacadeHarness, SessionService, LegacySession) {
        let facade = try makeFacade()
        let tokens = try await facade.storeSession()
        try await facade.store.clear()
        let legacy = LegacySession(issuer: facade.configuration.issuer, clientID: facade.configuration.clientID,
                                   refreshToken: try XCTUnwrap(tokens.refreshToken), accessToken: tokens.accessToken,
                                   idToken: tokens.idToken, scopes: tokens.scopes)
        guard let store else { return (facade, facade.service, legacy) }
        let service = SessionService(store: { _ in store }, transport: CurlTransport(timeout: 5), clock: facade.clock)
        service.callbackQueue = facade.service.callbackQueue
        service.registerListener(facade.listener)
        return (facade, service, legacy)
    }

    /// Initializes `service` carrying over from `shelf`; what listeners heard after the
    /// initialization's own outcome (C5: the restored session, or why it is not usable).
    private func initialize(_ service: SessionService, of facade: FacadeHarness, carryingOver shelf: LegacyShelf) async -> String? {
        service.carryOverLegacySession(from: shelf)
        service.initialize(facade.configuration, completion: facade.log.completion("initialize"))
        _ = await facade.log.waitForEvents(3)
        XCTAssertEqual(Array(facade.log.transcript.prefix(2)), ["A.didFinishInitializationWithError(nil)", "completion.initialize(success)"])
        return facade.log.transcript.dropFirst(2).first
    }

    func testTheLegacyCopyIsRemovedOnlyAfterOursIsSavedAndTheSessionIsAnnounced_C5() async throws {
        let steps = StepLog()
        let store = StepStore(steps: steps)
        let (facade, service, legacy) = try await makeLegacy(store: store)
        let shelf = LegacyShelf(legacy, steps: steps)
        let heard = await initialize(service, of: facade, carryingOver: shelf)
        XCTAssertEqual(heard, "A.didFinishAuthentication(token)")
        XCTAssertEqual(Array(steps.all.prefix(3)), ["read", "save", "remove"], "saved first, then removed there: \(steps.all)")
        XCTAssertNil(shelf.session)
        let adopted = await store.tokens
        XCTAssertNotEqual(adopted?.refreshToken, legacy.refreshToken, "refreshed, with the rotated token kept")
        XCTAssertEqual(facade.provider.refreshTokenReuses, 0)
    }

    func testAForgedLegacyIDTokenNamesNobodyTheIdentityIsTheProvidersValidatedOne_C5() async throws {
        let steps = StepLog()
        let store = StepStore(steps: steps)
        let (facade, service, real) = try await makeLegacy(store: store)
        // Whoever can write the legacy SDK's storage can write an unsigned ID token naming anyone.
        func part(_ json: String) -> String { Data(json.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "") }
        let forged = part(#"{"alg":"none"}"#) + "." + part(#"{"iss":"https://attacker.example","sub":"admin","aud":"x"}"#) + "."
        let legacy = LegacySession(issuer: real.issuer, clientID: real.clientID, refreshToken: real.refreshToken,
                                   accessToken: real.accessToken, idToken: forged, scopes: real.scopes)
        XCTAssertNil(legacy.tokens.subject, "nothing of the legacy ID token is taken before it could be checked")
        XCTAssertNil(legacy.tokens.idToken)
        let heard = await initialize(service, of: facade, carryingOver: LegacyShelf(legacy, steps: steps))
        XCTAssertEqual(heard, "A.didFinishAuthentication(token)")
        let adopted = await store.tokens
        XCTAssertEqual(adopted?.subject, LocalProvider.User.erika.subject, "the identity is the one the provider's validated ID token names")
        XCTAssertNotEqual(adopted?.idToken, forged)
    }

    func testAStoreThatCannotSaveLeavesTheLegacyCopyInPlace_C5() async throws {
        let steps = StepLog()
        let (facade, service, legacy) = try await makeLegacy(store: StepStore(steps: steps, refusesSaves: true))
        let shelf = LegacyShelf(legacy, steps: steps)
        let heard = await initialize(service, of: facade, carryingOver: shelf)
        XCTAssertEqual(heard, "A.didFinishAuthenticationWithError(storageFailed)")
        XCTAssertEqual(steps.all, ["read", "save"])
        XCTAssertEqual(shelf.session, legacy, "the user's session is still where the legacy SDK left it")
    }

    func testACopyThatCannotBeRemovedStillLeavesTheSessionAdopted() async throws {
        let steps = StepLog()
        let (facade, _, legacy) = try await makeLegacy()
        let shelf = LegacyShelf(legacy, steps: steps, removable: false)
        let heard = await initialize(facade.service, of: facade, carryingOver: shelf)
        XCTAssertEqual(heard, "A.didFinishAuthentication(token)")
        let stored = try await facade.store.load()
        XCTAssertNotNil(stored)
    }

    func testASessionOfItsOwnMeansTheLegacyStorageIsNotRead() async throws {
        let steps = StepLog()
        let facade = try makeFacade()
        _ = try await facade.storeSession()
        let shelf = LegacyShelf(LegacySession(issuer: facade.configuration.issuer, clientID: facade.configuration.clientID,
                                              refreshToken: "legacy"), steps: steps)
        let heard = await initialize(facade.service, of: facade, carryingOver: shelf)
        XCTAssertEqual(heard, "A.didFinishAuthentication(token)")
        XCTAssertEqual(steps.all, [])
        XCTAssertNotNil(shelf.session)
    }

    func testARefusedRefreshTokenEndsAsAnyRefusedRestoreDoes_C5() async throws {
        let steps = StepLog()
        let facade = try makeFacade()
        let shelf = LegacyShelf(LegacySession(issuer: facade.configuration.issuer, clientID: facade.configuration.clientID,
                                              refreshToken: "never-issued"), steps: steps)
        let heard = await initialize(facade.service, of: facade, carryingOver: shelf)
        XCTAssertEqual(heard, "A.didFinishAuthenticationWithError(reauthenticationRequired)")
        let stored = try await facade.store.load()
        XCTAssertNil(stored, "nothing is kept of a session the provider refused")
    }

    func testMatchingNeedsTheExactIssuerAndClient() throws {
        let configuration = try SessionConfiguration(issuer: URL(string: "https://op.example/tenant")!, clientID: "app",
                                                     redirectURI: URL(string: "com.example.app:/cb")!)
        func session(_ issuer: String?, _ client: String?) -> LegacySession {
            LegacySession(issuer: issuer.flatMap(URL.init(string:)), clientID: client, refreshToken: "r")
        }
        XCTAssertNil(session("https://op.example/tenant", "app").mismatch(with: configuration))
        XCTAssertNil(session("https://op.example/tenant/", "app").mismatch(with: configuration), "a trailing slash is the same issuer")
        XCTAssertNotNil(session("https://op.example/other", "app").mismatch(with: configuration))
        XCTAssertNotNil(session("https://OP.example/tenant", "app").mismatch(with: configuration), "issuers compare as strings")
        XCTAssertNotNil(session("https://op.example/tenant", "App").mismatch(with: configuration))
        XCTAssertNotNil(session(nil, "app").mismatch(with: configuration))
        XCTAssertNotNil(session("https://op.example/tenant", nil).mismatch(with: configuration))
        XCTAssertFalse(session("https://op.example/tenant", "app").description.contains("\"r\""))
    }

    func testALegacySessionThatIsNotAdoptedIsLeftAloneAndLoggedWithoutItsTokens() async throws {
        let facade = try makeFacade()
        let logger = CapturingLogger()
        let service = SessionService(store: { _ in InMemoryTokenStore() }, transport: CurlTransport(timeout: 5), clock: facade.clock, logger: logger)
        service.callbackQueue = facade.service.callbackQueue
        service.registerListener(facade.listener)
        let steps = StepLog()
        let foreign = LegacyShelf(LegacySession(issuer: URL(string: "https://elsewhere.example")!, clientID: facade.configuration.clientID,
                                                refreshToken: "legacy-refresh-token-value"), steps: steps)
        service.carryOverLegacySession(from: foreign)
        service.initialize(facade.configuration, completion: facade.log.completion("initialize"))
        service.fetchUserInfo(completion: facade.log.completion("fetchUserInfo"))
        _ = await facade.log.waitForEvents(4)
        XCTAssertEqual(facade.log.transcript, ["A.didFinishInitializationWithError(nil)", "completion.initialize(success)",
                                               "A.didFetchUserInfoWithError(notAuthenticated)", "completion.fetchUserInfo(notAuthenticated)"],
                       "initialize goes on as if there were no session")
        XCTAssertNotNil(foreign.session, "left where it was")
        let warning = try XCTUnwrap(logger.lines.first { $0.contains("the test's shelf") })
        XCTAssertTrue(warning.hasPrefix("[warning]") && warning.contains("another provider"), warning)
        XCTAssertFalse(logger.lines.contains { $0.contains("legacy-refresh-token-value") }, "no token in the log")
    }
}
