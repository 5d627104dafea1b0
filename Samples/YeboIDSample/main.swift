// yeboid-sample: the shapes of YeboID for Swift's README — a @MainActor coordinator that signs
// in and reads `sub`, then restore, refresh and sign-out — with `import YeboID` changed to
// `import YeboIDCompat`, against the embedded LocalProvider. A console program has no window, so
// it signs in through an agent (here the headless one) instead of a presentation context.
import Foundation
import SessionCore
import SessionTesting
import YeboIDCompat

/// An app-specific store (the README's `YeboIDTokenStore`): memory only, for a demo.
///
/// `@unchecked Sendable`: `data` is read and written only while holding `lock`.
final class DemoStore: YeboIDTokenStore, @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    func read() throws -> Data? { lock.withLock { data } }
    func write(_ data: Data) throws { lock.withLock { self.data = data } }
    func delete() throws { lock.withLock { data = nil } }
}

@MainActor final class LoginCoordinator {
    let identity: YeboID

    init(issuer: URL) throws {
        identity = try YeboID(issuer: issuer, clientID: LocalProvider.Client.demo.id,
                              redirectURI: URL(constant: "com.example.sessiondemo:/callback"), store: DemoStore())
    }

    func signIn() async throws -> String {
        _ = try await identity.signIn(agent: HeadlessUserAgent())
        let user = try await identity.userInfo()
        guard let sub = user["sub"] as? String else { throw YeboIDError("invalid_userinfo") }
        return sub
    }
}

@MainActor func run() async -> Int32 {
    do {
        let provider = try LocalProvider()
        defer { provider.stop() }
        let coordinator = try LoginCoordinator(issuer: provider.issuer)
        print("1. signed in as \(try await coordinator.signIn())")
        guard let tokens = try coordinator.identity.tokens() else {
            print("2. no tokens stored")
            return 1
        }
        print("2. tokens stored; granted scopes: \(tokens.grantedScopes.joined(separator: " "))")
        let rotated = try await coordinator.identity.refresh()
        print("3. refreshed; refresh token rotated: \(rotated.refreshToken != tokens.refreshToken)")
        try await coordinator.identity.signOut()
        print("4. signed out; tokens stored: \(try coordinator.identity.tokens() == nil ? "none" : "some")")
        return 0
    } catch {
        print("failed: \(error)")
        return 1
    }
}

exit(await run())
