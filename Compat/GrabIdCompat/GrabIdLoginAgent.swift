import Foundation
import SessionCore

/// Lets another agent show the login page, and hands the authorization request it shows to
/// `onRequest` first, so the login session gets its `state`, `nonce` and `codeVerifier` as
/// GrabID's did when it built the URL.
struct GrabIdLoginAgent: AuthorizationAgent {
    let inner: AuthorizationAgent
    let onRequest: @Sendable (AuthorizationRequest) -> Void

    func authorize(url: URL, redirectURI: URL) async throws -> URL {
        try await inner.authorize(url: url, redirectURI: redirectURI)
    }

    func authorize(configuredRedirectURI: URL, buildRequest: @Sendable (URL) async throws -> AuthorizationRequest) async throws -> URL {
        try await inner.authorize(configuredRedirectURI: configuredRedirectURI) { [onRequest] redirectURI in
            let request = try await buildRequest(redirectURI)
            onRequest(request)
            return request
        }
    }
}
