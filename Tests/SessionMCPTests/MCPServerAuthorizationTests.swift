import ClientTestSupport
import Foundation
import SessionCore
import SessionMCP
import SessionTesting
import XCTest

/// An MCP sign-in from the server's URL alone, against LocalProvider as an OAuth-only
/// authorization server with a strict protected resource at `/api/mcp`, over loopback.
final class MCPServerAuthorizationTests: XCTestCase {
    private let redirectURI = URL(string: "http://127.0.0.1/callback")!

    private func makeProvider(edit: (inout LocalProvider.Options) -> Void = { _ in }) throws -> (LocalProvider, ManualClock) {
        let clock = ManualClock()
        let provider = try LocalProvider(clock: clock) {
            $0.servesOpenIDConnect = false
            $0.offersDynamicRegistration = true
            $0.additionalScopes = ["mcp:tools"]
            $0.protectedResources = [.init(path: "/api/mcp", scopes: ["mcp:tools"])]
            edit(&$0)
        }
        addTeardownBlock { provider.stop() }
        return (provider, clock)
    }

    private func authorization(_ provider: LocalProvider, clock: ManualClock, _ registrations: [MCPClientRegistration]) -> MCPServerAuthorization {
        MCPServerAuthorization(serverURL: provider.resourceIdentifier(path: "/api/mcp"), redirectURI: redirectURI, registrations: registrations,
                               transport: CurlTransport(timeout: 5), clock: clock)
    }

    private func toolCall(_ provider: LocalProvider) -> HTTPRequest {
        HTTPRequest(method: "POST", url: provider.resourceIdentifier(path: "/api/mcp"), headers: ["Content-Type": "application/json"],
                    body: Data(#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#.utf8))
    }

    func testTheWholeDanceFromTheServersURLWithDynamicRegistration() async throws {
        let (provider, clock) = try makeProvider()
        let registrations = InMemoryClientRegistrationStore()
        let metadata = ClientMetadata(redirectURIs: [redirectURI], clientName: "MCP test client")
        let server = try await authorization(provider, clock: clock, [.dynamic(metadata, store: registrations)])
            .connect(agent: HeadlessUserAgent())
        let resource = provider.resourceIdentifier(path: "/api/mcp").absoluteString
        XCTAssertEqual(server.resource.resource.absoluteString, resource)
        XCTAssertEqual(provider.requests(to: .protectedResource).first?.accept, "application/json, text/event-stream",
                       "asked as MCP's streamable HTTP asks")
        XCTAssertEqual(provider.requests(to: .resourceMetadata).count, 1, "found from the challenge's resource_metadata")
        XCTAssertEqual(provider.requests(to: .registration).count, 1)
        let authorizationRequest = provider.requests(to: .authorization).last
        XCTAssertEqual(authorizationRequest?.resources, [resource])
        XCTAssertEqual(authorizationRequest?.parameters["scope"], "mcp:tools", "the challenge's scope")
        XCTAssertEqual(provider.requests(to: .token).last?.resources, [resource])

        let (response, tokens) = try await server.send(toolCall(provider), agent: HeadlessUserAgent())
        XCTAssertEqual(response.status, 200)
        XCTAssertFalse(tokens.hasIdentity)
        XCTAssertEqual(tokens.resources, [resource])

        // The next run reuses the registration.
        _ = try await authorization(provider, clock: clock, [.dynamic(metadata, store: registrations)]).connect(agent: HeadlessUserAgent())
        XCTAssertEqual(provider.requests(to: .registration).count, 1)
    }

    /// The document an app publishes at `url`, naming `redirectURIs`.
    private func metadataDocument(_ url: URL, redirectURIs: [String] = ["http://127.0.0.1/callback"], clientID: String? = nil) throws -> Data {
        try JSONSerialization.data(withJSONObject: ["client_id": clientID ?? url.absoluteString, "client_name": "MCP test client",
                                                    "redirect_uris": redirectURIs, "token_endpoint_auth_method": "none"])
    }

    func testAPreRegisteredClientComesFirstThenAMetadataDocumentThenRegistration() async throws {
        let document = URL(string: "https://app.example/oauth/client.json")!
        let published = try metadataDocument(document)
        let (provider, clock) = try makeProvider {
            $0.advertisesClientIDMetadataDocuments = true
            $0.clientIDMetadataDocuments[document.absoluteString] = published
        }
        let dynamic = MCPClientRegistration.dynamic(ClientMetadata(redirectURIs: [redirectURI]), store: InMemoryClientRegistrationStore())
        let viaDocument = try await authorization(provider, clock: clock, [dynamic, .clientIDMetadataDocument(document)])
            .connect(agent: HeadlessUserAgent())
        XCTAssertEqual(viaDocument.client.configuration.clientID, document.absoluteString)
        let exchange = try XCTUnwrap(provider.requests(to: .token).last)
        XCTAssertEqual(exchange.parameters["client_id"], document.absoluteString, "a public client names itself at the token endpoint")
        XCTAssertNil(exchange.authorization)
        XCTAssertNil(exchange.parameters["client_secret"])
        let (response, _) = try await viaDocument.send(toolCall(provider), agent: HeadlessUserAgent())
        XCTAssertEqual(response.status, 200)
        let preRegistered = try await authorization(provider, clock: clock,
                                                    [dynamic, .clientIDMetadataDocument(document), .preRegistered(clientID: "session-demo")])
            .connect(agent: HeadlessUserAgent())
        XCTAssertEqual(preRegistered.client.configuration.clientID, "session-demo")
        XCTAssertTrue(provider.requests(to: .registration).isEmpty)
    }

    func testNoRegistrationTheServerTakesEndsTheSignIn() async throws {
        let (provider, clock) = try makeProvider { $0.offersDynamicRegistration = false }
        await assertSessionError(.unsupportedProviderFeature) {
            _ = try await self.authorization(provider, clock: clock, [.clientIDMetadataDocument(URL(string: "https://app.example/c.json")!)])
                .connect(agent: HeadlessUserAgent())
        }
        XCTAssertTrue(provider.requests(to: .authorization).isEmpty)
    }

    func testAMetadataDocumentTheServerCannotTakeEndsTheSignInAtItsPage() async throws {
        let document = URL(string: "https://app.example/oauth/client.json")!
        let elsewhere = try metadataDocument(document, redirectURIs: ["https://app.example/callback"])
        let anotherClients = try metadataDocument(document, clientID: "https://app.example/other.json")
        for published in [elsewhere, anotherClients] {
            let (provider, clock) = try makeProvider {
                $0.advertisesClientIDMetadataDocuments = true
                $0.clientIDMetadataDocuments[document.absoluteString] = published
            }
            let error = await assertSessionError(.unexpectedResponse) {
                _ = try await self.authorization(provider, clock: clock, [.clientIDMetadataDocument(document)]).connect(agent: HeadlessUserAgent())
            }
            XCTAssertEqual(error?.httpStatus, 400, "the provider's error page, not a redirect to a URI the document does not name")
            XCTAssertEqual(provider.requests(to: .authorization).count, 1)
            XCTAssertTrue(provider.requests(to: .token).isEmpty, "no code was issued")
        }
    }

    func testAMetadataDocumentURLNoServerTakesIsRefusedBeforeAnythingIsSent() async throws {
        let (provider, clock) = try makeProvider { $0.advertisesClientIDMetadataDocuments = true }
        let refused = [
            ("http://app.example/client.json", "must be an https URL"),
            ("https://app.example", "has no path"),
            ("https://app.example/", "has no path"),
            ("https://app.example/client.json#main", "has a fragment"),
            ("https://me:hunter2@app.example/client.json", "has a user or password"),
            ("https://app.example/oauth/../client.json", "has a '.' or '..' segment"),
            ("https://app.example/oauth/%2E/client.json", "has a '.' or '..' segment"),
        ]
        for (text, rule) in refused {
            let document = try XCTUnwrap(URL(string: text))
            let preRegistered = MCPClientRegistration.preRegistered(clientID: "session-demo")
            let error = await assertSessionError(.invalidConfiguration, process: .configuration) {
                // Refused even where the server would have taken another registration first.
                _ = try await self.authorization(provider, clock: clock, [preRegistered, .clientIDMetadataDocument(document)])
                    .connect(agent: HeadlessUserAgent())
            }
            XCTAssertTrue(error?.message.hasSuffix(rule) ?? false, "\(text): \(error?.message ?? "no error")")
            XCTAssertFalse(error?.message.contains("hunter2") ?? true, "a password in the URL is never shown")
        }
        XCTAssertTrue(LocalProvider.Endpoint.allCases.allSatisfy { provider.requests(to: $0).isEmpty }, "nothing was sent")
    }

    func testAnExpiredRegistrationIsMadeAgain() async throws {
        let (provider, clock) = try makeProvider { $0.registrationLifetime = 600 }
        let registrations = InMemoryClientRegistrationStore()
        let metadata = ClientMetadata(redirectURIs: [redirectURI], tokenEndpointAuthMethod: "client_secret_basic")
        let first = try await authorization(provider, clock: clock, [.dynamic(metadata, store: registrations)]).connect(agent: HeadlessUserAgent())
        let issuer = provider.issuer.absoluteString
        let kept = await registrations.loadRegistration(issuer: issuer)
        XCTAssertNotNil(kept?.clientSecret)
        XCTAssertFalse(String(describing: kept).contains(kept?.clientSecret ?? "-"), "the secret is never shown")

        clock.advance(by: 700)
        let second = try await authorization(provider, clock: clock, [.dynamic(metadata, store: registrations)]).connect(agent: HeadlessUserAgent())
        XCTAssertEqual(provider.requests(to: .registration).count, 2)
        XCTAssertNotEqual(second.client.configuration.clientID, first.client.configuration.clientID)
        let (response, _) = try await second.send(toolCall(provider), agent: HeadlessUserAgent())
        XCTAssertEqual(response.status, 200)
    }

    func testEachWayToAuthenticateARegisteredClientIsTheOneRegistered() async throws {
        for method in ["none", "client_secret_basic", "client_secret_post"] {
            let (provider, clock) = try makeProvider()
            let metadata = ClientMetadata(redirectURIs: [redirectURI], tokenEndpointAuthMethod: method)
            let server = try await authorization(provider, clock: clock, [.dynamic(metadata, store: InMemoryClientRegistrationStore())])
                .connect(agent: HeadlessUserAgent())
            let exchange = try XCTUnwrap(provider.requests(to: .token).last)
            XCTAssertEqual(exchange.parameters["client_secret"] != nil, method == "client_secret_post", method)
            XCTAssertEqual(exchange.authorization?.hasPrefix("Basic ") ?? false, method == "client_secret_basic", method)
            _ = try await server.client.refresh()
        }
    }

    func testARegistrationFileKeepsItsSecretsFromOthers() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("registrations-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let store = try FileClientRegistrationStore(directory: directory)
        let registration = RegisteredClient(issuer: "https://as.example", clientID: "c1", clientSecret: "s3cret",
                                            registrationAccessToken: "rat", redirectURIs: [redirectURI])
        try await store.saveRegistration(registration)
        let loaded = try await store.loadRegistration(issuer: "https://as.example")
        XCTAssertEqual(loaded, registration)
        let other = try await store.loadRegistration(issuer: "https://other.example")
        XCTAssertNil(other)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        XCTAssertEqual(files.count, 1)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(files[0]).path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        try Data("not json".utf8).write(to: directory.appendingPathComponent(files[0]))
        await assertSessionError(.storageCorrupt) { _ = try await store.loadRegistration(issuer: "https://as.example") }
        try await store.removeRegistration(issuer: "https://as.example")
        let removed = try await store.loadRegistration(issuer: "https://as.example")
        XCTAssertNil(removed)
    }
}
