import Foundation
import LoopbackHTTP
import SessionCore
import SessionPostgres
import SessionWebApp

/// `webapp-sample app`: one instance of the application, on the package's loopback HTTP server (a
/// stand-in for the server framework behind a reverse proxy).
struct AppCommand {
    private let issuer: URL
    private let clientID: String
    private let port: UInt16
    private let publicOrigin: URL?
    private let name: String
    private let postgres: (conninfo: String, sealingKey: String)?

    init(_ arguments: [String]) throws {
        var arguments = arguments
        guard let issuer = try SampleUsage.take("--issuer", from: &arguments).flatMap(URL.init(string:)) else { throw SampleUsage.message }
        self.issuer = issuer
        clientID = try SampleUsage.take("--client-id", from: &arguments) ?? "webapp-sample"
        port = try SampleUsage.take("--port", from: &arguments).map { guard let port = UInt16($0) else { throw SampleUsage.message }; return port } ?? 8081
        publicOrigin = try SampleUsage.take("--public-origin", from: &arguments).flatMap(URL.init(string:))
        name = try SampleUsage.take("--name", from: &arguments) ?? "app"
        let conninfo = try SampleUsage.take("--postgres", from: &arguments)
        let key = try SampleUsage.take("--sealing-key-file", from: &arguments)
        guard arguments.isEmpty, (conninfo == nil) == (key == nil) else { throw SampleUsage.message }
        postgres = conninfo.flatMap { conninfo in key.map { (conninfo, $0) } }
    }

    func run() async throws {
        let app = WebAppRoutes.Holder()
        let server = try LoopbackHTTPServer(host: .ipv4, port: port) { request in app.handle(request) }
        let origin = publicOrigin ?? URL(string: "http://127.0.0.1:\(server.port)")!
        let configuration = try SessionConfiguration(issuer: issuer, clientID: clientID, redirectURI: origin.appendingPathComponent("callback"),
                                                     scopes: ["profile", "email"], postLogoutRedirectURI: origin.appendingPathComponent("signed-out"))
        let provider = OpenIDProvider(configuration: configuration)
        let store: WebSessionStore
        let pending: PendingAuthorizationPlace
        if let postgres {
            let conninfo = try String(contentsOfFile: postgres.conninfo, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            let keys = try SealingKeys(current: SealingKey(id: "sample", bytes: try Data(contentsOf: URL(fileURLWithPath: postgres.sealingKey))))
            let database = try PostgresDatabase(connectionString: conninfo, sealingKeys: keys)
            store = PostgresWebSessionStore(database: database, configuration: configuration)
            pending = .store(PostgresPendingAuthorizations(database: database, configuration: configuration))
        } else {
            store = InMemoryWebSessionStore()
            pending = .sealed(try AuthorizationSealingKey.generate())
        }
        app.routes = WebAppRoutes(web: try WebSessions(provider: provider, store: store, pending: pending,
                                                       options: WebSessionOptions(appOrigin: origin)),
                                  name: name, origin: origin)
        FileHandle.standardOutput.write(Data(("listening on http://127.0.0.1:\(server.port) as \(origin.absoluteString)" + "\n").utf8))
        await server.waitUntilStopped()
    }
}
