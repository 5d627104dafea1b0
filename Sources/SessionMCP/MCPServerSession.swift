import Foundation
import SessionCore

/// A signed-in session on one MCP server: its requests carry the token issued for the server
/// (and no other), refreshed when due, and a refusal that asks for more scopes or a fresher
/// authentication signs in again through the app's agent.
public struct MCPServerSession: Sendable {
    /// The session, on the server's authorization server.
    public let client: SessionClient
    /// The server's protected resource metadata; its `resource` is the URI the tokens are for.
    public let resource: ProtectedResourceMetadata

    /// Sends `request` (a JSON-RPC POST, say) to the server with its token; a step-up signs in
    /// again through `agent` at most `maximumSignIns` times
    /// (`SessionClient.sendAuthorized`),
    /// a refusal that names no scope taken to ask for the resource's `scopes_supported`.
    /// - Parameters:
    ///   - request: the request to the server.
    ///   - agent: shows the authorization server's page for a step-up sign-in.
    ///   - maximumSignIns: how many step-up sign-ins one call may make.
    /// - Throws: `noTokenForResource` for a URL the server's resource does not cover; the errors
    ///   of `SessionClient.sendAuthorized`.
    public func send(_ request: HTTPRequest, agent: AuthorizationAgent, maximumSignIns: Int = 2) async throws -> (response: HTTPResponse, tokens: SessionTokens) {
        try await client.sendAuthorized(request, process: .authentication, purpose: "MCP request", signingInAgainWith: agent,
                                        maximumSignIns: maximumSignIns, scopesWhenUnnamed: resource.scopesSupported ?? [])
    }
}
