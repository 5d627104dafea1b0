// The README of YeboID for Swift, promise by promise, against LocalProvider over loopback, in
// Swift 5 language mode with YeboIDCompat imported where the app imported YeboID.
import Foundation
import SessionCore
import SessionTesting
import XCTest
import YeboIDCompat

/// An app's own store, in memory, that can be told to fail.
final class MemoryStore: YeboIDTokenStore, Sendable {
    private let state = Locked<(data: Data?, failsWrites: Bool)>((nil, false))
    func read() throws -> Data? { state.value.data }
    func write(_ data: Data) throws {
        try state.withLock { state in
            if state.failsWrites { throw CocoaError(.fileWriteOutOfSpace) }
            state.data = data
        }
    }
    func delete() throws { state.withLock { $0.data = nil } }
    func failWrites() { state.withLock { $0.failsWrites = true } }
}

/// Holds refresh requests until the test lets them through, and says when one arrived.
final class GatedTransport: HTTPTransport, Sendable {
    private struct State: Sendable {
        var gate: CheckedContinuation<Void, Never>?
        var arrival: CheckedContinuation<Void, Never>?
        var holds = false
        var hasArrived = false
    }

    private let inner = CurlTransport(timeout: 5)
    private let state = Locked(State())

    func holdRefreshes() { state.withLock { $0.holds = true } }

    func waitForArrival() async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                if state.hasArrived { return true }
                state.arrival = continuation
                return false
            }
            if ready { continuation.resume() }
        }
    }

    func release() {
        let waiting = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.holds = false
            defer { state.gate = nil }
            return state.gate
        }
        waiting?.resume()
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let isRefresh = request.body.map { String(decoding: $0, as: UTF8.self).contains("grant_type=refresh_token") } ?? false
        if isRefresh, state.withLock({ $0.holds }) {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let arrived = state.withLock { state -> CheckedContinuation<Void, Never>? in
                    state.gate = continuation
                    state.hasArrived = true
                    defer { state.arrival = nil }
                    return state.arrival
                }
                arrived?.resume()
            }
        }
        return try await inner.send(request)
    }
}

final class YeboIDTests: XCTestCase {
    private let redirect = URL(string: "com.example.sessiondemo:/callback")!

    private func makeProvider() throws -> LocalProvider {
        let provider = try LocalProvider()
        addTeardownBlock { provider.stop() }
        return provider
    }

    private func makeIdentity(_ provider: LocalProvider, store: YeboIDTokenStore = MemoryStore(),
                              transport: HTTPTransport = CurlTransport(timeout: 5)) throws -> YeboID {
        try YeboID(issuer: provider.issuer, clientID: LocalProvider.Client.demo.id, redirectURI: redirect, store: store, transport: transport)
    }

    private func assertYeboIDError(_ code: String, file: StaticString = #filePath, line: UInt = #line,
                                   _ body: () async throws -> Void) async {
        do {
            try await body()
            XCTFail("no error; expected \(code)", file: file, line: line)
        } catch let error as YeboIDError {
            XCTAssertEqual(error.code, code, "\(error)", file: file, line: line)
        } catch {
            XCTFail("\(error) is not a YeboIDError", file: file, line: line)
        }
    }

    func testTheDefaultsAskForOpenIDProfileAndOfflineAccessAndReportWhatWasGranted() async throws {
        let provider = try makeProvider()
        let identity = try makeIdentity(provider)
        let tokens = try await identity.signIn(agent: HeadlessUserAgent())
        let asked = provider.requests(to: .authorization).first?.parameters["scope"]
        XCTAssertEqual(asked, "openid profile offline_access")
        XCTAssertEqual(Set(tokens.grantedScopes), ["openid", "profile", "offline_access"])
        XCTAssertNotNil(tokens.refreshToken)
        let user = try await identity.userInfo()
        XCTAssertEqual(user["sub"] as? String, "erika")
        XCTAssertEqual(try identity.tokens(), tokens)
    }

    func testOnlyCustomSchemeCallbacksAreAccepted() throws {
        for uri in ["https://app.example/oauth/callback", "http://127.0.0.1/callback"] {
            XCTAssertThrowsError(try YeboID(clientID: "c", redirectURI: URL(string: uri)!)) { error in
                XCTAssertEqual((error as? YeboIDError)?.code, "invalid_redirect_uri")
            }
        }
        XCTAssertNoThrow(try YeboID(issuer: URL(string: "https://api.yeboid.com")!, clientID: "c",
                                    redirectURI: URL(string: "com.yourcompany.yourapp://oauth/callback")!, store: MemoryStore()))
    }

    func testMutatingOperationsAreExclusiveAndReadsDoNotWait() async throws {
        let provider = try makeProvider()
        let transport = GatedTransport()
        let identity = try makeIdentity(provider, transport: transport)
        let signedIn = try await identity.signIn(agent: HeadlessUserAgent())
        transport.holdRefreshes()
        let running = Task { try await identity.refresh() }
        await transport.waitForArrival()
        await assertYeboIDError("operation_in_progress") { _ = try await identity.refresh() }
        await assertYeboIDError("operation_in_progress") { try await identity.signOut() }
        await assertYeboIDError("operation_in_progress") { _ = try await identity.signIn(agent: HeadlessUserAgent()) }
        XCTAssertEqual(try identity.tokens(), signedIn, "reads do not wait: the tokens before the refresh")
        transport.release()
        let refreshed = try await running.value
        XCTAssertNotEqual(refreshed.refreshToken, signedIn.refreshToken, "rotated")
        XCTAssertEqual(try identity.tokens(), refreshed, "the rotated token was saved before refresh returned")
        XCTAssertEqual(provider.refreshTokenReuses, 0)
    }

    func testAnUncertainRefreshRequiresAFreshSignInInsteadOfAReplay() async throws {
        let provider = try makeProvider()
        let identity = try makeIdentity(provider)
        _ = try await identity.signIn(agent: HeadlessUserAgent())
        provider.inject(.dropConnection, at: .token)
        await assertYeboIDError("reauthentication_required") { _ = try await identity.refresh() }
        XCTAssertNil(try identity.tokens())
        await assertYeboIDError("not_authenticated") { _ = try await identity.refresh() }
        let refreshes = provider.requests(to: .token).filter { $0.parameters["grant_type"] == "refresh_token" }
        XCTAssertEqual(refreshes.count, 1, "never retried, never replayed")
    }

    func testSignOutRevokesBeforeClearingAndAFailedRevocationKeepsTheSession() async throws {
        let provider = try makeProvider()
        let identity = try makeIdentity(provider)
        let tokens = try await identity.signIn(agent: HeadlessUserAgent())
        let refreshToken = try XCTUnwrap(tokens.refreshToken)
        provider.inject(.status(503), at: .revocation)
        await assertYeboIDError("server_error") { try await identity.signOut() }
        XCTAssertEqual(try identity.tokens(), tokens, "kept")
        XCTAssertTrue(provider.isActive(refreshToken: refreshToken))
        try await identity.signOut()
        XCTAssertNil(try identity.tokens())
        XCTAssertFalse(provider.isActive(refreshToken: refreshToken), "revoked at the provider")
    }

    func testTheErrorsTheReadmeNamesAreDistinctAndCarryNoToken() async throws {
        struct Closing: AuthorizationAgent {
            func authorize(url: URL, redirectURI: URL) async throws -> URL { throw CancellationError() }
        }
        let provider = try makeProvider()
        let store = MemoryStore()
        let identity = try makeIdentity(provider, store: store)
        await assertYeboIDError("user_cancelled") { _ = try await identity.signIn(agent: Closing()) }
        provider.scriptConsent(.deny)
        await assertYeboIDError("access_denied") { _ = try await identity.signIn(agent: HeadlessUserAgent()) }
        await assertYeboIDError("not_authenticated") { _ = try await identity.userInfo() }
        store.failWrites()
        await assertYeboIDError("storage_failed") { _ = try await identity.signIn(agent: HeadlessUserAgent()) }

        let offline = try YeboID(issuer: URL(string: "http://127.0.0.1:1")!, clientID: "c", redirectURI: redirect, store: MemoryStore())
        await assertYeboIDError("offline") { _ = try await offline.signIn(agent: HeadlessUserAgent()) }
        XCTAssertEqual(YeboIDError("invalid_userinfo").code, "invalid_userinfo")
    }

    func testAnotherInstanceOnTheSameStoreFindsTheSession() async throws {
        let provider = try makeProvider()
        let store = MemoryStore()
        let tokens = try await makeIdentity(provider, store: store).signIn(agent: HeadlessUserAgent())
        let later = try makeIdentity(provider, store: store)
        XCTAssertEqual(try later.tokens(), tokens)
        XCTAssertFalse("\(tokens)".contains(tokens.accessToken), "descriptions carry no token")
    }

    func testASessionAnEarlierRunLeftMidRefreshReadsAsNone() async throws {
        let provider = try makeProvider()
        let store = MemoryStore()
        let transport = GatedTransport()
        let identity = try makeIdentity(provider, store: store, transport: transport)
        _ = try await identity.signIn(agent: HeadlessUserAgent())
        transport.holdRefreshes()
        let running = Task { try await identity.refresh() }
        await transport.waitForArrival()
        // The app dies here; the next launch makes a new instance on the same store.
        let nextLaunch = try makeIdentity(provider, store: store)
        XCTAssertNil(try nextLaunch.tokens(), "its refresh token may be spent: sign in afresh")
        transport.release()
        _ = try await running.value
    }

    /// YeboID's login page is on another host than its issuer: the authorization URL is the
    /// discovery document's, never the issuer with a path appended.
    func testTheLoginPageIsTheOneDiscoveryNames() async throws {
        /// Serves the provider's discovery document with the authorization endpoint on `localhost`.
        struct MovedLogin: HTTPTransport {
            let inner = CurlTransport(timeout: 5)
            func send(_ request: HTTPRequest) async throws -> HTTPResponse {
                var response = try await inner.send(request)
                if request.url.path.hasSuffix("openid-configuration") {
                    let text = String(decoding: response.body, as: UTF8.self)
                    response.body = Data(text.replacingOccurrences(of: "\\/authorize", with: "\\/moved-login")
                        .replacingOccurrences(of: "/authorize\"", with: "/moved-login\"").utf8)
                }
                return response
            }
        }
        /// Records the URL it is sent to, then signs in at the provider's real page.
        final class Recorder: AuthorizationAgent, Sendable {
            private let urls = Locked<[URL]>([])
            var seen: [URL] { urls.value }
            func authorize(url: URL, redirectURI: URL) async throws -> URL {
                urls.withLock { $0.append(url) }
                var real = try XCTUnwrap(URLComponents(url: url, resolvingAgainstBaseURL: false))
                real.path = "/authorize"
                return try await HeadlessUserAgent().authorize(url: try XCTUnwrap(real.url), redirectURI: redirectURI)
            }
        }
        let provider = try makeProvider()
        let recorder = Recorder()
        let identity = try makeIdentity(provider, transport: MovedLogin())
        _ = try await identity.signIn(agent: recorder)
        XCTAssertEqual(recorder.seen.map(\.path), ["/moved-login"])
    }
}
