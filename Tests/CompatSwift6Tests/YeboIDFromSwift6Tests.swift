import Foundation
import SessionCore
import SessionTesting
import XCTest
import YeboIDCompat

/// The README's LoginCoordinator, in Swift 6 language mode: a @MainActor class that keeps the
/// client and calls it, with no @preconcurrency or nonisolated(unsafe) of its own. Off Apple
/// platforms it signs in through an agent instead of a presentation context.
@MainActor final class LoginCoordinator {
    let identity: YeboID
    private let agent: AuthorizationAgent

    init(identity: YeboID, agent: AuthorizationAgent) {
        self.identity = identity
        self.agent = agent
    }

    func signIn() async throws -> String {
        _ = try await identity.signIn(agent: agent)
        let user = try await identity.userInfo()
        guard let sub = user["sub"] as? String else { throw YeboIDError("invalid_userinfo") }
        return sub
    }
}

/// A store the app might write: here, memory only.
final class SessionInMemory: YeboIDTokenStore, Sendable {
    private let data = Locked<Data?>(nil)
    func read() throws -> Data? { data.value }
    func write(_ data: Data) throws { self.data.value = data }
    func delete() throws { data.value = nil }
}

final class YeboIDFromSwift6Tests: XCTestCase {
    @MainActor
    func testTheReadmesCoordinatorSignsInFromTheMainActor() async throws {
        let provider = try LocalProvider()
        defer { provider.stop() }
        let identity = try YeboID(issuer: provider.issuer, clientID: LocalProvider.Client.demo.id,
                                  redirectURI: URL(string: "com.example.sessiondemo:/callback")!, store: SessionInMemory())
        let coordinator = LoginCoordinator(identity: identity, agent: HeadlessUserAgent())
        let sub = try await coordinator.signIn()
        XCTAssertEqual(sub, "erika")
        try await identity.signOut()
        XCTAssertNil(try identity.tokens())
    }
}
