import Foundation
import SessionCore
import SessionLoopback
import SessionMCP
import SessionTesting

/// `session-demo --resource URL`: an MCP sign-in from the server's URL alone, step by step —
/// the resource's metadata, its authorization server, the registration, the sign-in through the
/// browser, one request with the token. `--resource embedded` does it against LocalProvider's
/// protected resource, approving as erika. Tokens are never printed.
struct ResourceWalk {
    let options: DemoOptions
    let console: Console

    func run() async -> Int32 {
        var local: LocalProvider?
        defer { local?.stop() }
        let url: URL
        let agent: AuthorizationAgent
        do {
            if options.resource == "embedded" {
                var providerOptions = LocalProvider.Options()
                providerOptions.servesOpenIDConnect = false
                providerOptions.offersDynamicRegistration = true
                providerOptions.additionalScopes = ["mcp:tools"]
                providerOptions.protectedResources = [.init(path: "/api/mcp", scopes: ["mcp:tools"])]
                let provider = try LocalProvider(options: providerOptions)
                local = provider
                url = provider.resourceIdentifier(path: "/api/mcp")
                agent = HeadlessUserAgent()
            } else {
                guard let text = options.resource, let parsed = URL(string: text), parsed.host != nil else {
                    console.failure("--resource: not a URL")
                    return 2
                }
                url = parsed
                agent = LoopbackBrowserAgent(opener: options.opensBrowser ? .system : .printOnly)
            }
            console.line("== MCP sign-in to \(url.absoluteString)", .step)
            let registrations: any ClientRegistrationStore = try options.storePath.map {
                try FileClientRegistrationStore(directory: URL(fileURLWithPath: $0 + ".registrations"))
            } ?? InMemoryClientRegistrationStore()
            var offered: [MCPClientRegistration] = [.dynamic(ClientMetadata(redirectURIs: [options.redirectURI], clientName: "session-demo"),
                                                             store: registrations)]
            if let clientID = options.clientID { offered.insert(.preRegistered(clientID: clientID), at: 0) }
            let authorization = MCPServerAuthorization(serverURL: url, redirectURI: options.redirectURI, registrations: offered)
            let server = try await authorization.connect(agent: agent)
            let resource = server.resource
            console.line("  resource \(resource.resource.absoluteString); authorization servers: "
                         + resource.authorizationServers.map(\.absoluteString).joined(separator: ", "))
            console.line("  client_id \(server.client.configuration.clientID) at \(server.client.configuration.issuer.absoluteString)")
            guard let tokens = await server.client.tokens else { return 1 }
            console.line("  signed in: scopes \(tokens.scopes.joined(separator: " ")); \(tokens.hasIdentity ? "user \(tokens.subject ?? "?")" : "no identity (OAuth only)")", .good)
            let ping = #"{"jsonrpc":"2.0","id":1,"method":"ping"}"#
            let (response, _) = try await server.send(HTTPRequest(method: "POST", url: url, headers: [
                "Content-Type": "application/json", "Accept": "application/json, text/event-stream",
            ], body: Data(ping.utf8)), agent: agent)
            console.line("  POST \(url.absoluteString) with the token: HTTP \(response.status)", response.status < 300 ? .good : .bad)
            return response.status < 300 ? 0 : 1
        } catch let error as SessionError {
            console.failure("MCP sign-in failed: \(CallbackPrinter.describe(error))")
            return error.code == .invalidConfiguration ? 2 : 1
        } catch {
            console.failure("MCP sign-in failed: \(error.localizedDescription)")
            return 1
        }
    }
}
