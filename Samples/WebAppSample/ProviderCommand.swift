import Foundation
import SessionTesting

/// `webapp-sample provider`: LocalProvider on a port, with a page to choose who signs in, its
/// client `webapp-sample` registered for the given applications (their `/callback` and `/` as
/// redirect URIs, the first one's `/backchannel-logout` for back-channel logout).
struct ProviderCommand {
    private let port: UInt16
    private let apps: [URL]

    init(_ arguments: [String]) throws {
        var arguments = arguments
        port = try SampleUsage.take("--port", from: &arguments).map { guard let port = UInt16($0) else { throw SampleUsage.message }; return port } ?? 9000
        var apps: [URL] = []
        while let app = try SampleUsage.take("--app", from: &arguments) {
            guard let url = URL(string: app), url.host != nil else { throw SampleUsage(text: "--app: not a URL: \(app)") }
            apps.append(url)
        }
        guard !apps.isEmpty, arguments.isEmpty else { throw SampleUsage.message }
        self.apps = apps
    }

    func run() throws {
        var options = LocalProvider.Options()
        options.port = port
        options.users = [.erika, .max]
        options.showsLoginPage = true
        let redirects = apps.flatMap { [$0.appendingPathComponent("callback"), $0.appendingPathComponent("signed-out")] }
        options.clients = [LocalProvider.Client(id: "webapp-sample", redirectURIs: redirects,
                                                backChannelLogoutURI: apps[0].appendingPathComponent("backchannel-logout"))]
        let provider = try LocalProvider(options: options)
        FileHandle.standardOutput.write(Data(("provider at \(provider.issuer.absoluteString)" + "\n").utf8))
        while true { sleep(3600) }
    }
}
