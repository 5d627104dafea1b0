import Foundation
import SessionCore
import SessionMCP
import SessionTesting
import XCTest

/// SessionMCP against PyPI's MCP SDK (Tests/Interop/mcp/server.py, started by run-interop.sh): its
/// authorization server and its protected streamable HTTP endpoint, code nobody here wrote.
final class MCPInteropTests: XCTestCase {
    private let redirectURI = URL(string: "http://127.0.0.1/callback")!

    private func serverURL() throws -> URL { try InteropVariable.url("INTEROP_MCP_URL", file: #filePath, line: #line) }

    private func authorization(_ url: URL, registrations: InMemoryClientRegistrationStore) -> MCPServerAuthorization {
        MCPServerAuthorization(serverURL: url, redirectURI: redirectURI, registrations: [
            .dynamic(ClientMetadata(redirectURIs: [redirectURI], clientName: "SessionService interop"), store: registrations),
        ])
    }

    /// A JSON-RPC call of `method` as the streamable HTTP transport takes it.
    private func call(_ url: URL, _ method: String, _ params: [String: Any], id: Int) throws -> HTTPRequest {
        let body = try JSONSerialization.data(withJSONObject: ["jsonrpc": "2.0", "id": id, "method": method, "params": params])
        return HTTPRequest(method: "POST", url: url, headers: [
            "Content-Type": "application/json", "Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25",
        ], body: body)
    }

    private func result(_ response: HTTPResponse) throws -> [String: Any] {
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: response.body) as? [String: Any], String(decoding: response.body, as: UTF8.self))
        return try XCTUnwrap(object["result"] as? [String: Any], "\(object)")
    }

    private func echo(_ server: MCPServerSession, _ url: URL, _ text: String, id: Int) async throws -> HTTPResponse {
        try await server.send(try call(url, "tools/call", ["name": "echo", "arguments": ["text": text]], id: id), agent: HeadlessUserAgent()).response
    }

    func testFromTheServersURLToAToolCallWithRegistrationResourceAndRefresh() async throws {
        let url = try serverURL()
        let registrations = InMemoryClientRegistrationStore()
        let server = try await authorization(url, registrations: registrations).connect(agent: HeadlessUserAgent())
        XCTAssertEqual(server.resource.resource, url)
        let held = await server.client.tokens
        let tokens = try XCTUnwrap(held)
        XCTAssertEqual(tokens.resources, [url.absoluteString])
        XCTAssertFalse(tokens.hasIdentity, "an OAuth-only server: tokens without identity")
        XCTAssertEqual(tokens.scopes, ["mcp:tools"], "the resource's scopes_supported, as the challenge named none")
        let issuer = try XCTUnwrap(server.resource.authorizationServers.first).absoluteString
        let registration = await registrations.loadRegistration(issuer: issuer)
        XCTAssertNotNil(registration)

        let initialize = try await server.send(try call(url, "initialize", [
            "protocolVersion": "2025-11-25", "capabilities": [:] as [String: Any], "clientInfo": ["name": "interop", "version": "1"],
        ], id: 1), agent: HeadlessUserAgent()).response
        XCTAssertEqual(initialize.status, 200, String(decoding: initialize.body, as: UTF8.self))
        XCTAssertNotNil(try result(initialize)["serverInfo"])

        let echoed = try await echo(server, url, "hello", id: 2)
        XCTAssertEqual(echoed.status, 200)
        XCTAssertTrue(String(decoding: echoed.body, as: UTF8.self).contains("hello"))

        let refreshed = try await server.client.refresh()
        XCTAssertNotEqual(refreshed.refreshToken, tokens.refreshToken, "the SDK's provider rotates refresh tokens")
        let again = try await echo(server, url, "after refresh", id: 3)
        XCTAssertEqual(again.status, 200)
    }

    func testAScopeTheServerNeedsIsAskedForByStepUp() async throws {
        let url = try serverURL()
        let metadataURL = URL(string: "/.well-known/oauth-protected-resource/mcp", relativeTo: url)!.absoluteURL
        let challenge = try ResourceChallenge(try XCTUnwrap(
            AuthenticationChallenge.parse(#"Bearer scope="mcp:read", resource_metadata="\#(metadataURL.absoluteString)""#).first))
        let server = try await authorization(url, registrations: InMemoryClientRegistrationStore())
            .connect(agent: HeadlessUserAgent(), challenge: challenge)
        let before = await server.client.tokens
        XCTAssertEqual(before?.scopes, ["mcp:read"])
        let events = Locked<[SessionEvent]>([])
        await server.client.setEventHandler { event in events.withLock { $0.append(event) } }

        let echoed = try await echo(server, url, "stepped up", id: 1)
        XCTAssertEqual(echoed.status, 200, "the server's 403 insufficient_scope (without scope) was answered by a sign-in for its scopes_supported")
        let after = await server.client.tokens
        XCTAssertEqual(Set(after?.scopes ?? []), ["mcp:read", "mcp:tools"])
        XCTAssertEqual(events.value.count(where: { if case .stepUpRequired = $0 { true } else { false } }), 1)
    }

    func testNoTokenLeavesForAnotherPathOfTheSameOrigin() async throws {
        let url = try serverURL()
        let server = try await authorization(url, registrations: InMemoryClientRegistrationStore()).connect(agent: HeadlessUserAgent())
        let elsewhere = URL(string: "/other", relativeTo: url)!.absoluteURL
        do {
            _ = try await server.send(HTTPRequest(method: "GET", url: elsewhere), agent: HeadlessUserAgent())
            XCTFail("a token left for a resource it was not issued for")
        } catch let error as SessionError {
            XCTAssertEqual(error.code, .noTokenForResource)
        }
    }
}
