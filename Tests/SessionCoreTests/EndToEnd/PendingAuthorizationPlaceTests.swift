@testable import SessionCore
import ClientTestSupport
import Foundation
import SessionTesting
import XCTest

/// One begin/complete pair for every place a pending sign-in is kept: here, sealed in the browser's
/// cookie, or in a store the servers share — finished on the server the callback reaches, and
/// only with the cookie the beginning gave.
final class PendingAuthorizationPlaceTests: XCTestCase {
    private func servers() throws -> (LocalProvider, SessionClient, SessionClient) {
        let local = try LocalProvider(clock: SystemClock())
        addTeardownBlock { local.stop() }
        let configuration = try local.configuration()
        func server() -> SessionClient {
            SessionClient(provider: OpenIDProvider(configuration: configuration, transport: CurlTransport(timeout: 5)))
        }
        return (local, server(), server())
    }

    func testEachPlaceIsBegunAndFinishedByTheOnePair() async throws {
        let places: [(String, PendingAuthorizationPlace)] = [
            ("sealed", .sealed(try AuthorizationSealingKey.generate(), finishedIn: InMemoryPendingAuthorizationStore())),
            ("store", .store(InMemoryPendingAuthorizationStore())),
        ]
        for (name, place) in places {
            let (local, first, second) = try servers()
            let begun = try await first.beginAuthorization(keepingIn: place)
            let cookie = try XCTUnwrap(begun.cookie, name)
            let callback = try await HeadlessUserAgent().authorize(url: begun.request.url, redirectURI: begun.request.redirectURI)
            // Without the cookie nothing is finished, on either server.
            await assertSessionError(.stateMismatch, process: .authentication) {
                _ = try await second.completeAuthorization(callbackURL: callback, keptIn: place, cookie: nil)
            }
            let tokens = try await second.completeAuthorization(callbackURL: callback, keptIn: place, cookie: cookie)
            XCTAssertEqual(tokens.subject, "erika", name)
            XCTAssertEqual(local.requests(to: .token).count, 1, "\(name): the code was exchanged once")
            await assertSessionError(.stateMismatch, process: .authentication) {
                _ = try await first.completeAuthorization(callbackURL: callback, keptIn: place, cookie: cookie)
            }
            XCTAssertEqual(local.requests(to: .token).count, 1, "\(name): finished once, across the servers")
        }
    }

    func testKeptHereTheSignInIsThisClientsPendingOne() async throws {
        let (_, client, _) = try servers()
        let begun = try await client.beginAuthorization(keepingIn: .here)
        XCTAssertNil(begun.cookie)
        let pending = await client.isRedirectForPendingAuthorization(begun.request.redirectURI)
        XCTAssertTrue(pending)
        let callback = try await HeadlessUserAgent().authorize(url: begun.request.url, redirectURI: begun.request.redirectURI)
        let tokens = try await client.completeAuthorization(callbackURL: callback, keptIn: .here, cookie: nil)
        XCTAssertEqual(tokens.subject, "erika")
        await assertSessionError(.invalidConfiguration) { _ = try await client.beginAuthorization(keepingIn: .here, lifetime: -1) }
    }
}
