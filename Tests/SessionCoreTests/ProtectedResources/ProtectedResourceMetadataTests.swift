import ClientTestSupport
import Foundation
import LoopbackHTTP
import SessionCore
import XCTest

/// RFC 9728's metadata, read strictly, and found as a client given only a resource's URL finds
/// it: over loopback HTTP from a server that serves it where the RFC says.
final class ProtectedResourceMetadataTests: XCTestCase {
    private func document(_ members: String) -> Data { Data("{\(members)}".utf8) }

    func testReadsTheMembersOfADocumentThatCoversTheResource() throws {
        let metadata = try ProtectedResourceMetadata(data: document("""
            "resource": "https://mcp.example.com/mcp", "authorization_servers": ["https://auth.example.com/tenant1"],
            "scopes_supported": ["files:read"], "bearer_methods_supported": ["header"], "resource_name": "Files",
            "dpop_bound_access_tokens_required": true, "dpop_signing_alg_values_supported": ["ES256"]
            """), requested: URL(string: "https://mcp.example.com/mcp")!)
        XCTAssertEqual(metadata.resource.absoluteString, "https://mcp.example.com/mcp")
        XCTAssertEqual(metadata.authorizationServers.map(\.absoluteString), ["https://auth.example.com/tenant1"])
        XCTAssertEqual(metadata.scopesSupported, ["files:read"])
        XCTAssertEqual(metadata.bearerMethodsSupported, ["header"])
        XCTAssertEqual(metadata.resourceName, "Files")
        XCTAssertTrue(metadata.dpopBoundAccessTokensRequired)
        XCTAssertEqual(metadata.dpopSigningAlgValuesSupported, ["ES256"])
    }

    func testAResourceCoversItsOwnPathAndWhatIsBelowItOnly() throws {
        let root = try ProtectedResourceMetadata(data: document(#""resource": "https://mcp.example.com""#),
                                                 requested: URL(string: "https://mcp.example.com/public/mcp")!)
        XCTAssertTrue(root.covers(URL(string: "https://MCP.example.com:443/other")!))
        let server = try ProtectedResourceMetadata(data: document(#""resource": "https://mcp.example.com/mcp""#),
                                                   requested: URL(string: "https://mcp.example.com/mcp/tools")!)
        XCTAssertTrue(server.covers(URL(string: "https://mcp.example.com/mcp")!))
        XCTAssertFalse(server.covers(URL(string: "https://mcp.example.com/mcp-admin")!))
        XCTAssertFalse(server.covers(URL(string: "https://mcp.example.com/")!))
        XCTAssertFalse(server.covers(URL(string: "https://mcp.example.com:8443/mcp")!))
        XCTAssertFalse(server.covers(URL(string: "http://mcp.example.com/mcp")!))
        // Paths compared as sent: an encoded slash or a dot segment does not put a URL below it.
        XCTAssertFalse(server.covers(URL(string: "https://mcp.example.com/mcp%2F..%2Fadmin")!))
        XCTAssertFalse(server.covers(URL(string: "https://mcp.example.com/mcp/../admin")!))
        XCTAssertFalse(server.covers(URL(string: "https://mcp.example.com/mcp/%2E%2E/admin")!))
        XCTAssertTrue(server.covers(URL(string: "https://mcp.example.com/mcp/tools/list")!))
    }

    func testRefusesADocumentForAnotherResourceOrWithAnInsecureAuthorizationServer() async {
        let requested = URL(string: "https://mcp.example.com/mcp")!
        for members in [
            #""resource": "https://evil.example.com/mcp""#,
            #""resource": "https://mcp.example.com/other""#,
            #""resource": "https://mcp.example.com/mcp#x""#,
            #""resource": "http://mcp.example.com/mcp""#,
            #""authorization_servers": ["https://auth.example.com"]"#,
            #""resource": "https://mcp.example.com/mcp", "authorization_servers": ["http://auth.example.com"]"#,
            #""resource": "https://mcp.example.com/mcp", "authorization_servers": ["https://auth.example.com/?tenant=1"]"#,
            #""resource": "https://mcp.example.com/mcp", "authorization_servers": "https://auth.example.com""#,
            #""resource": "https://mcp.example.com/mcp", "scopes_supported": [1]"#,
            #""resource": "https://mcp.example.com/mcp", "resource": "https://evil.example.com/mcp""#,
        ] {
            await assertSessionError(.invalidDiscoveryDocument, process: .configuration) {
                try ProtectedResourceMetadata(data: document(members), requested: requested)
            }
        }
    }

    func testTheWellKnownPlacesAreThePathInsertedThenTheRoot() {
        XCTAssertEqual(ProtectedResourceMetadata.wellKnownURLs(for: URL(string: "https://example.com/public/mcp?x=1")!).map(\.absoluteString),
                       ["https://example.com/.well-known/oauth-protected-resource/public/mcp",
                        "https://example.com/.well-known/oauth-protected-resource"])
        XCTAssertEqual(ProtectedResourceMetadata.wellKnownURLs(for: URL(string: "https://example.com/")!).map(\.absoluteString),
                       ["https://example.com/.well-known/oauth-protected-resource"])
    }

    func testAnAuthorizationServersMetadataIsLookedForInTheOrderOfRFC8414AndOpenIDDiscovery() {
        XCTAssertEqual(ProviderMetadata.metadataURLs(forAuthorizationServer: URL(string: "https://auth.example.com/tenant1")!).map(\.absoluteString), [
            "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
            "https://auth.example.com/.well-known/openid-configuration/tenant1",
            "https://auth.example.com/tenant1/.well-known/openid-configuration",
        ])
        XCTAssertEqual(ProviderMetadata.metadataURLs(forAuthorizationServer: URL(string: "https://auth.example.com")!).map(\.absoluteString), [
            "https://auth.example.com/.well-known/oauth-authorization-server",
            "https://auth.example.com/.well-known/openid-configuration",
        ])
    }

    // MARK: Discovery over loopback

    /// A resource server on loopback: `documents` by path, 404 elsewhere; the paths asked, in order.
    private func resourceServer(_ documents: @escaping @Sendable (_ base: String, _ path: String) -> HTTPServerResponse?) throws
        -> (LoopbackHTTPServer, Locked<[String]>) {
        let asked = Locked<[String]>([])
        let base = Locked("")
        let server = try LoopbackHTTPServer { request in
            asked.withLock { $0.append(request.path) }
            return .respond(documents(base.value, request.path) ?? .text("not found", status: 404))
        }
        base.withLock { $0 = server.baseURL.absoluteString }
        return (server, asked)
    }

    private static func json(_ text: String) -> HTTPServerResponse { .text(text, contentType: "application/json") }

    func testFindsTheMetadataAtThePathThenAtTheRoot() async throws {
        let (server, asked) = try resourceServer { base, path in
            path == "/.well-known/oauth-protected-resource"
                ? Self.json(#"{"resource": "\#(base)", "authorization_servers": ["\#(base)/auth"]}"#) : nil
        }
        defer { server.stop() }
        let url = server.baseURL.appendingPathComponent("mcp")
        let metadata = try await ProtectedResourceDiscovery().metadata(for: url)
        XCTAssertEqual(metadata.resource, server.baseURL)
        XCTAssertEqual(asked.value, ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"])
    }

    func testTheChallengesPlaceIsTheOnlyOneAsked() async throws {
        let (server, asked) = try resourceServer { base, path in
            path == "/meta/mcp" ? Self.json(#"{"resource": "\#(base)/mcp"}"#) : nil
        }
        defer { server.stop() }
        let url = server.baseURL.appendingPathComponent("mcp")
        let challenge = try XCTUnwrap(ResourceChallenge.challenges(in: HTTPResponse(status: 401, headers: [
            "WWW-Authenticate": #"Bearer resource_metadata="\#(server.baseURL.absoluteString)/meta/mcp""#,
        ])).first)
        let metadata = try await ProtectedResourceDiscovery().metadata(for: url, challenge: challenge)
        XCTAssertEqual(metadata.resource, url)
        XCTAssertEqual(asked.value, ["/meta/mcp"])
    }

    func testTheChallengeProbeAcceptsJSONUnlessTheCallerNamesItsMediaTypes() async throws {
        let accepted = Locked<[String?]>([])
        let server = try LoopbackHTTPServer { request in
            accepted.withLock { $0.append(request.header("Accept")) }
            return .respond(HTTPServerResponse(status: 401, headers: [("WWW-Authenticate", #"Bearer scope="files:read""#)], body: Data()))
        }
        defer { server.stop() }
        let url = server.baseURL.appendingPathComponent("api")
        let challenge = try await ProtectedResourceDiscovery().challenge(at: url)
        XCTAssertEqual(challenge?.scope, ["files:read"])
        _ = try await ProtectedResourceDiscovery().challenge(at: url, accept: "application/json, text/event-stream")
        XCTAssertEqual(accepted.value, ["application/json", "application/json, text/event-stream"])
    }

    func testADocumentNamingAnotherResourceIsRefusedNotSkipped() async throws {
        let (server, asked) = try resourceServer { _, path in
            path.hasPrefix("/.well-known/") ? Self.json(#"{"resource": "https://evil.example.com/mcp"}"#) : nil
        }
        defer { server.stop() }
        await assertSessionError(.invalidDiscoveryDocument, process: .configuration) {
            try await ProtectedResourceDiscovery().metadata(for: server.baseURL.appendingPathComponent("mcp"))
        }
        XCTAssertEqual(asked.value, ["/.well-known/oauth-protected-resource/mcp"])
    }

    func testNoDocumentAnywhereAndAServerFailureAreClearErrors() async throws {
        let (server, _) = try resourceServer { _, path in path == "/.well-known/oauth-protected-resource/broken" ? .text("no", status: 500) : nil }
        defer { server.stop() }
        await assertSessionError(.invalidDiscoveryDocument, process: .configuration) {
            try await ProtectedResourceDiscovery().metadata(for: server.baseURL.appendingPathComponent("mcp"))
        }
        let failure = await assertSessionError(.invalidDiscoveryDocument) {
            try await ProtectedResourceDiscovery().metadata(for: server.baseURL.appendingPathComponent("broken"))
        }
        XCTAssertEqual(failure?.httpStatus, 500)
        await assertSessionError(.invalidConfiguration) {
            try await ProtectedResourceDiscovery().metadata(for: URL(string: "http://mcp.example.com/mcp")!)
        }
    }
}
