@testable import SessionCore
import ClientTestSupport
import Foundation
import SessionTesting
import XCTest

/// A sign-in begun on one server and finished on another: the pending request travels sealed.
final class SealedAuthorizationTests: XCTestCase {
    private struct Servers {
        let local: LocalProvider
        let clock: ManualClock
        let first: SessionClient
        let second: SessionClient
        let key: AuthorizationSealingKey
    }

    /// Two servers of one app: a provider and a session each, the same configuration and key.
    private func servers() throws -> Servers {
        let clock = ManualClock()
        let local = try LocalProvider(clock: clock)
        addTeardownBlock { local.stop() }
        let configuration = try local.configuration()
        func server() -> SessionClient {
            SessionClient(provider: OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 5), clock: clock))
        }
        return Servers(local: local, clock: clock, first: server(), second: server(), key: try AuthorizationSealingKey.generate())
    }

    func testASignInBegunOnOneServerIsFinishedOnAnother() async throws {
        let servers = try servers()
        let (request, pending) = try await servers.first.beginAuthorization(keepingIn: .sealed(servers.key)).parts
        let callback = try await HeadlessUserAgent().authorize(url: request.url, redirectURI: request.redirectURI)
        let tokens = try await servers.second.completeAuthorization(callbackURL: callback, keptIn: .sealed(servers.key), cookie: pending)
        XCTAssertEqual(tokens.subject, LocalProvider.User.erika.subject)
        let kept = await servers.second.tokens
        XCTAssertEqual(kept, tokens)
        let leftPending = await servers.first.isRedirectForPendingAuthorization(callback)
        XCTAssertFalse(leftPending, "nothing was left pending on the first server")
        XCTAssertEqual(servers.local.requests(to: .token).last?.parameters["code_verifier"], request.codeVerifier)
    }

    func testTheSealHoldsNoSecretInTheClear() async throws {
        let servers = try servers()
        let (request, cookie) = try await servers.first.beginAuthorization(keepingIn: .sealed(servers.key)).parts
        let pending = SealedAuthorization(value: try XCTUnwrap(cookie))
        for secret in [request.state, request.nonce ?? "-", request.codeVerifier] {
            XCTAssertFalse(pending.value.contains(secret))
        }
        let opened = String(decoding: Base64URL.decode(pending.value.dropFirst(3)) ?? Data(), as: UTF8.self)
        XCTAssertFalse(opened.contains(request.state) || opened.contains(request.codeVerifier), "sealed, not merely encoded")
        XCTAssertFalse(pending.description.contains(pending.value))
        XCTAssertFalse(servers.key.description.contains(Base64URL.encode(servers.key.bytes)))
    }

    func testAChangedByteAnotherKeyOrAnotherProviderIsAStateMismatch() async throws {
        let servers = try servers()
        let (request, pending) = try await servers.first.beginAuthorization(keepingIn: .sealed(servers.key)).parts
        let callback = try await HeadlessUserAgent().authorize(url: request.url, redirectURI: request.redirectURI)
        let sealed = try XCTUnwrap(pending)
        let characters = Array(sealed)
        for index in characters.indices {
            var changed = characters
            changed[index] = changed[index] == "A" ? "B" : "A"
            await assertSessionError(.stateMismatch, process: .authentication) {
                try await servers.second.completeAuthorization(callbackURL: callback, keptIn: .sealed(servers.key), cookie: String(changed))
            }
        }
        for value in ["", "v1.", "v1.!!!!", String(sealed.dropLast(4)), sealed + "AAAA", String(repeating: "A", count: 20_000)] {
            await assertSessionError(.stateMismatch) {
                try await servers.second.completeAuthorization(callbackURL: callback, keptIn: .sealed(servers.key), cookie: value)
            }
        }
        await assertSessionError(.stateMismatch) {
            try await servers.second.completeAuthorization(callbackURL: callback, keptIn: .sealed(try AuthorizationSealingKey.generate()), cookie: pending)
        }
        // A client of another provider with the same key.
        let other = try LocalProvider()
        defer { other.stop() }
        let elsewhere = SessionClient(configuration: try other.configuration(), transport: CurlTransport(timeout: 5))
        await assertSessionError(.stateMismatch) {
            try await elsewhere.completeAuthorization(callbackURL: callback, keptIn: .sealed(servers.key), cookie: pending)
        }
        // The same client configured with its other redirect URI.
        let otherRedirect = SessionClient(configuration: try servers.local.configuration(redirectURI: URL(string: "http://127.0.0.1/callback")!),
                                          transport: CurlTransport(timeout: 5))
        await assertSessionError(.stateMismatch) {
            try await otherRedirect.completeAuthorization(callbackURL: callback, keptIn: .sealed(servers.key), cookie: pending)
        }
        XCTAssertTrue(servers.local.requests(to: .token).isEmpty, "no code was exchanged")
        // And the genuine value still works.
        _ = try await servers.second.completeAuthorization(callbackURL: callback, keptIn: .sealed(servers.key), cookie: pending)
    }

    func testASealedSignInExpiresAndIsFinishedOnce() async throws {
        let servers = try servers()
        let (request, pending) = try await servers.first.beginAuthorization(keepingIn: .sealed(servers.key), lifetime: 60).parts
        let callback = try await HeadlessUserAgent().authorize(url: request.url, redirectURI: request.redirectURI)
        _ = try await servers.second.completeAuthorization(callbackURL: callback, keptIn: .sealed(servers.key), cookie: pending)
        let replay = await assertSessionError(.stateMismatch) {
            try await servers.second.completeAuthorization(callbackURL: callback, keptIn: .sealed(servers.key), cookie: pending)
        }
        XCTAssertTrue(replay?.message.contains("finished before") == true, replay?.message ?? "")
        XCTAssertEqual(servers.local.requests(to: .token).count, 1, "the code was sent once")

        let (later, stale) = try await servers.first.beginAuthorization(keepingIn: .sealed(servers.key), lifetime: 60).parts
        let laterCallback = try await HeadlessUserAgent().authorize(url: later.url, redirectURI: later.redirectURI)
        servers.clock.advance(by: 61)
        let expired = await assertSessionError(.stateMismatch) {
            try await servers.second.completeAuthorization(callbackURL: laterCallback, keptIn: .sealed(servers.key), cookie: stale)
        }
        XCTAssertTrue(expired?.message.contains("expired") == true, expired?.message ?? "")
    }

    /// A reload of the callback that lands on another server (another process, another provider
    /// object) sends nothing when the servers share a store to note finished sign-ins in: a code
    /// sent twice would make the provider revoke what it gave, ending the first server's session.
    func testASealedSignInReplayedOnAnotherServerSendsNothingWhereTheServersShareAStore() async throws {
        let servers = try servers()
        let shared = InMemoryPendingAuthorizationStore()
        let (request, pending) = try await servers.first.beginAuthorization(keepingIn: .sealed(servers.key)).parts
        let callback = try await HeadlessUserAgent().authorize(url: request.url, redirectURI: request.redirectURI)
        let tokens = try await servers.second.completeAuthorization(callbackURL: callback, keptIn: .sealed(servers.key, finishedIn: shared), cookie: pending)
        let replay = await assertSessionError(.stateMismatch) {
            try await servers.first.completeAuthorization(callbackURL: callback, keptIn: .sealed(servers.key, finishedIn: shared), cookie: pending)
        }
        XCTAssertTrue(replay?.message.contains("another server") == true, replay?.message ?? "")
        XCTAssertEqual(servers.local.requests(to: .token).count, 1, "the code was sent once")
        let refreshed = try await servers.second.refresh()
        XCTAssertEqual(refreshed.subject, tokens.subject, "the first server's session lives on")
    }

    func testARedirectOfAnotherSignInIsRefused() async throws {
        let servers = try servers()
        let (_, pending) = try await servers.first.beginAuthorization(keepingIn: .sealed(servers.key)).parts
        let (other, _) = try await servers.first.beginAuthorization(keepingIn: .sealed(servers.key)).parts
        let callback = try await HeadlessUserAgent().authorize(url: other.url, redirectURI: other.redirectURI)
        await assertSessionError(.stateMismatch) {
            try await servers.second.completeAuthorization(callbackURL: callback, keptIn: .sealed(servers.key), cookie: pending)
        }
        XCTAssertThrowsError(try AuthorizationSealingKey(Data(count: 16))) { XCTAssertEqual(($0 as? SessionError)?.code, .invalidConfiguration) }
    }

    /// AES-256-GCM by the platform's library, against the GCM specification's test cases 13 and
    /// 14 (zero key and nonce), and refusing a changed tag.
    func testTheCipherMatchesKnownAnswers() throws {
        let key = Data(count: 32), nonce = Data(count: 12)
        let empty = try PlatformCryptoBackend.sealAES256GCM(key: key, nonce: nonce, plaintext: Data(), authenticating: Data())
        XCTAssertEqual(empty.hex, "530f8afbc74536b9a963b4f1c4cb738b")
        let block = try PlatformCryptoBackend.sealAES256GCM(key: key, nonce: nonce, plaintext: Data(count: 16), authenticating: Data())
        XCTAssertEqual(block.hex, "cea7403d4d606b6e074ec5d3baf39d18" + "d0d1c8a799996bf0265b98b5d48ab919")
        XCTAssertEqual(try PlatformCryptoBackend.openAES256GCM(key: key, nonce: nonce, sealed: block, authenticating: Data()), Data(count: 16))
        var changed = block
        changed[changed.count - 1] ^= 1
        XCTAssertNil(try PlatformCryptoBackend.openAES256GCM(key: key, nonce: nonce, sealed: changed, authenticating: Data()))
        XCTAssertNil(try PlatformCryptoBackend.openAES256GCM(key: key, nonce: nonce, sealed: block, authenticating: Data("x".utf8)))
    }
}

private extension Data {
    var hex: String { map { String(format: "%02x", $0) }.joined() }
}
