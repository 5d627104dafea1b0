import Foundation
import SessionCore
import SessionWebAuthentication
import SessionTesting

/// A browser session that plays a script instead of showing a page: when started it runs
/// `onStart` with the completion the run gave it, which reports whatever the test wants.
@MainActor
final class ScriptedBrowserSession: WebAuthenticationSessionControl {
    private(set) var starts = 0
    private(set) var cancels = 0
    private let startSucceeds: Bool
    private let completion: WebAuthenticationCompletion
    private let onStart: @MainActor (_ completion: @escaping WebAuthenticationCompletion) -> Void

    init(startSucceeds: Bool = true, completion: @escaping WebAuthenticationCompletion,
         onStart: @escaping @MainActor (_ completion: @escaping WebAuthenticationCompletion) -> Void) {
        self.startSucceeds = startSucceeds
        self.completion = completion
        self.onStart = onStart
    }

    func start() -> Bool {
        starts += 1
        if startSucceeds { onStart(completion) }
        return startSucceeds
    }

    func cancel() {
        cancels += 1
    }
}

/// The Apple agent's shape with the scripted session in place of `ASWebAuthenticationSession`:
/// it derives the callback from the redirect URI and runs a session that, when started, plays
/// the user with `HeadlessUserAgent` against the provider and reports the redirect it ends at.
struct ScriptedWebAuthenticationAgent: AuthorizationAgent {
    static let errorDomain = "test.WebAuthenticationSession"

    func authorize(url: URL, redirectURI: URL) async throws -> URL {
        let callback = try WebAuthenticationCallback(redirectURI: redirectURI)
        return try await show(url: url, redirectURI: redirectURI, callback: callback)
    }

    @MainActor
    private func show(url: URL, redirectURI: URL, callback: WebAuthenticationCallback) async throws -> URL {
        try await WebAuthenticationRun.run(callback: callback, sessionErrorDomain: Self.errorDomain) { completion in
            ScriptedBrowserSession(completion: completion) { completion in
                Task {
                    do {
                        completion(try await HeadlessUserAgent().authorize(url: url, redirectURI: redirectURI), nil)
                    } catch {
                        completion(nil, NSError(domain: Self.errorDomain, code: 1))
                    }
                }
            }
        }
    }
}
