import ClientTestSupport
import DemoTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SessionCore
import SessionTesting
import XCTest

/// webapp-sample as a user runs it: two instances, each a process of its own, on one PostgreSQL,
/// against LocalProvider. A sign-in begun on one is finished on the other, either serves the
/// session, a sign-out on one ends it on both, and the provider's back-channel logout ends a user's
/// sessions on both.
final class WebAppSampleTests: XCTestCase {
    /// A browser talking HTTP to the instances: it keeps their cookies (one host, so every instance
    /// gets them, as behind a load balancer).
    private struct Browser {
        var cookies = CookieJar()

        mutating func send(_ method: String, _ url: URL, origin: String? = nil, form: [(String, String)] = []) async throws -> HTTPResponse {
            var headers: [String: String] = [:]
            headers["Cookie"] = cookies.header
            if let origin { headers["Origin"] = origin }
            var body: Data?
            if method == "POST" {
                headers["Content-Type"] = "application/x-www-form-urlencoded"
                body = Data(form.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&").utf8)
            }
            let response = try await CurlTransport(timeout: 10).send(HTTPRequest(method: method, url: url, headers: headers, body: body, followsRedirects: false))
            if let setCookie = response.header("Set-Cookie") { cookies.store(setCookie) }
            return response
        }
    }

    private struct Instance {
        let process: ChildProcess
        let url: URL
    }

    private func start(_ name: String, issuer: URL, publicOrigin: URL? = nil) async throws -> Instance {
        let keyFile = try XCTUnwrap(ProcessInfo.processInfo.environment["SESSION_POSTGRES_SEALING_KEY_FILE"])
        var arguments = ["app", "--issuer", issuer.absoluteString, "--port", "0", "--name", name,
                         "--postgres", PostgresHarness.connectionStringFile, "--sealing-key-file", keyFile]
        if let publicOrigin { arguments += ["--public-origin", publicOrigin.absoluteString] }
        var process = try ChildProcess.start("webapp-sample", arguments)
        let first = await process.lines.next()
        let line = try XCTUnwrap(first, "the instance started")
        let address = try XCTUnwrap(line.split(separator: " ").dropFirst(2).first.flatMap { URL(string: String($0)) }, line)
        addTeardownBlock { [pid = process.pid] in kill(pid, SIGTERM) }
        return Instance(process: process, url: address)
    }

    private func user(_ browser: inout Browser, at instance: Instance) async throws -> String? {
        let response = try await browser.send("GET", instance.url.appendingPathComponent("me"))
        guard response.status == 200, case .object(let members)? = try? JSONDecoder().decode(JSONValue.self, from: response.body) else { return nil }
        return members["sub"]?.stringValue
    }

    /// A sign-in begun at `first` and finished at `second`; the provider sends the browser back to
    /// the application's public origin, `origin`.
    private func signIn(_ browser: inout Browser, beginningAt first: Instance, finishingAt second: Instance, origin: URL) async throws {
        let login = try await browser.send("GET", first.url.appendingPathComponent("login"))
        XCTAssertEqual(login.status, 303)
        let providerPage = try XCTUnwrap(login.header("Location").flatMap(URL.init(string:)))
        let callback = try await HeadlessUserAgent().authorize(url: providerPage, redirectURI: origin.appendingPathComponent("callback"))
        // The load balancer sends the callback to the other instance.
        var onSecond = URLComponents(url: callback, resolvingAgainstBaseURL: false)!
        onSecond.port = second.url.port
        let finished = try await browser.send("GET", onSecond.url!)
        XCTAssertEqual(finished.status, 303, String(decoding: finished.body, as: UTF8.self))
    }

    func testTwoInstancesServeOneSessionEndItTogetherAndHearTheProvidersLogout() async throws {
        _ = try PostgresHarness.connectionString()
        let provider = try LocalProvider(clock: SystemClock()) {
            // Loopback redirect URIs registered without a port accept any port (RFC 8252 §7.3).
            $0.clients = [LocalProvider.Client(id: "webapp-sample", redirectURIs: [URL(string: "http://127.0.0.1/callback")!,
                                                                                   URL(string: "http://127.0.0.1/signed-out")!])]
            $0.users = [.erika, .max]
        }
        defer { provider.stop() }
        let a = try await start("a", issuer: provider.issuer)
        let b = try await start("b", issuer: provider.issuer, publicOrigin: a.url)
        provider.register(backChannelLogoutURI: a.url.appendingPathComponent("backchannel-logout"), forClient: "webapp-sample")

        var laptop = Browser()
        try await signIn(&laptop, beginningAt: a, finishingAt: b, origin: a.url)
        let onA = try await user(&laptop, at: a)
        let onB = try await user(&laptop, at: b)
        XCTAssertEqual([onA, onB], ["erika", "erika"], "either instance serves the session")

        // A sign-out on one instance ends the session on the other.
        let refused = try await laptop.send("POST", b.url.appendingPathComponent("logout"), origin: "http://evil.example")
        XCTAssertEqual(refused.status, 403)
        let signOut = try await laptop.send("POST", b.url.appendingPathComponent("logout"), origin: a.url.absoluteString.trimmingCharacters(in: ["/"]))
        XCTAssertEqual(signOut.status, 303)
        let afterSignOut = try await user(&laptop, at: a)
        XCTAssertNil(afterSignOut)

        // The provider ends Erika's sessions: both of hers end on both instances; Max's stays.
        var phone = Browser(), maxs = Browser()
        try await signIn(&laptop, beginningAt: a, finishingAt: b, origin: a.url)
        try await signIn(&phone, beginningAt: b, finishingAt: a, origin: a.url)
        provider.scriptConsent(.approveAs(subject: "max"))
        try await signIn(&maxs, beginningAt: a, finishingAt: a, origin: a.url)
        let status = await provider.endSessions(ofSubject: "erika", clientID: "webapp-sample")
        XCTAssertEqual(status, 200)
        for instance in [a, b] {
            let laptopUser = try await user(&laptop, at: instance)
            let phoneUser = try await user(&phone, at: instance)
            let maxUser = try await user(&maxs, at: instance)
            XCTAssertNil(laptopUser)
            XCTAssertNil(phoneUser)
            XCTAssertEqual(maxUser, "max")
        }
    }
}
