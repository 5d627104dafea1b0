import ClientTestSupport
import Foundation
import LoopbackHTTP
@testable import SessionCore
@testable import SessionLoopback
import SessionTesting
import XCTest

/// What another local user, or a web page scanning 127.0.0.1, can do to a sign-in through the
/// loopback agent: read no secret from a process's arguments, end nothing with a request that
/// lacks the sign-in's `state`, reach nothing through a foreign `Host`, and not crowd out the
/// browser with idle or slow connections.
final class LoopbackListenerSecurityTests: XCTestCase {
    private static let anyPortRedirect = URL(string: "http://127.0.0.1/callback")!

    /// The redirect the provider sends the browser to for `url` (after consent), not yet loaded.
    private static func redirect(for url: URL) async throws -> URL {
        let redirect = try XCTUnwrap(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
            .first { $0.name == "redirect_uri" }?.value.flatMap(URL.init(string:)))
        return try await HeadlessUserAgent().authorize(url: url, redirectURI: redirect)
    }

    private static func get(_ url: URL, host: String? = nil) async throws -> HTTPResponse {
        try await CurlTransport(timeout: 5).send(HTTPRequest(method: "GET", url: url, headers: host.map { ["Host": $0] } ?? [:]))
    }

    private static func replacing(_ name: String, with value: String, in url: URL) throws -> URL {
        var components = try XCTUnwrap(URLComponents(url: url, resolvingAgainstBaseURL: false))
        components.queryItems = components.queryItems?.map { $0.name == name ? URLQueryItem(name: name, value: value) : $0 }
        return try XCTUnwrap(components.url)
    }

    func testTheBrowserCommandGetsNoSecretInItsArgumentsAndTheSignInCompletesThroughWhatItWasGiven() async throws {
        // An app's environment may hold a client secret: the browser, which may outlive the sign-in, does not inherit it.
        setenv("SESSION_TEST_CLIENT_SECRET", "secret-in-the-environment", 1)
        defer { unsetenv("SESSION_TEST_CLIENT_SECRET") }
        let harness = try makeLocalHarness(redirectURI: Self.anyPortRedirect)
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("opener-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        // The "browser": records its arguments and environment, keeps a copy of what it was given.
        let opener = work.appendingPathComponent("browser")
        try """
            #!/bin/sh
            printf '%s\\n' "$@" > '\(work.path)/argv'
            env > '\(work.path)/environ'
            stat -c '%a' "$1" > '\(work.path)/mode'
            stat -c '%a' "$(dirname "$1")" > '\(work.path)/directory-mode'
            cp "$1" '\(work.path)/page'
            echo done > '\(work.path)/done'
            """.write(to: opener, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: opener.path)
        XCTAssertEqual(mkfifo(work.appendingPathComponent("done").path, 0o600), 0)
        let agent = LoopbackBrowserAgent(timeout: 20, opener: .command(opener), showInstruction: { _ in })
        let client = harness.client
        let signIn = Task { try await client.signIn(agent: agent) }
        // Follow what the browser was given, as a browser would: the page's forwarding URL.
        let page = try await Self.file(work.appendingPathComponent("page"), after: work.appendingPathComponent("done"))
        let forwarded = try XCTUnwrap(page.range(of: #"url=([^"]+)""#, options: .regularExpression).map { String(page[$0].dropFirst(4).dropLast()) })
        let authorization = try XCTUnwrap(URL(string: forwarded.replacingOccurrences(of: "&amp;", with: "&")))
        _ = try await Self.get(try await Self.redirect(for: authorization))
        let tokens = try await signIn.value
        XCTAssertEqual(tokens.subject, "erika")

        let sent = try XCTUnwrap(harness.provider.requests(to: .authorization).last?.parameters)
        let argv = try String(contentsOf: work.appendingPathComponent("argv"), encoding: .utf8)
        let environ = try String(contentsOf: work.appendingPathComponent("environ"), encoding: .utf8)
        for name in ["state", "nonce", "code_challenge"] {
            let secret = try XCTUnwrap(sent[name])
            XCTAssertFalse(argv.contains(secret) || environ.contains(secret), "\(name) reached the browser command's arguments or environment")
        }
        XCTAssertFalse(argv.contains("authorize"), "the request URI is not an argument either: \(argv)")
        XCTAssertFalse(environ.contains("secret-in-the-environment"), "the app's environment reached the browser command")
        XCTAssertTrue(environ.contains("PATH="), "what opening a browser needs is kept: \(environ)")
        XCTAssertEqual(try String(contentsOf: work.appendingPathComponent("mode"), encoding: .utf8), "600\n")
        XCTAssertEqual(try String(contentsOf: work.appendingPathComponent("directory-mode"), encoding: .utf8), "700\n")
        let given = argv.trimmingCharacters(in: .newlines)
        XCTAssertFalse(FileManager.default.fileExists(atPath: given), "the page is deleted when the sign-in ends")
    }

    /// The contents of `file` once the opener has written to the FIFO `marker` (its last step):
    /// a blocking read on a thread of its own, so nothing polls.
    private static func file(_ file: URL, after marker: URL) async throws -> String {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                // open() blocks until the opener opens the FIFO to write; read() until it is done.
                let descriptor = open(marker.path, O_RDONLY)
                var byte: UInt8 = 0
                while descriptor >= 0, read(descriptor, &byte, 1) > 0 {}
                close(descriptor)
                done.resume()
            }
        }
        return try String(contentsOf: file, encoding: .utf8)
    }

    func testARequestWithoutTheSignInsStateEndsNothingAndTheRealRedirectStillCompletes() async throws {
        let answers = try await Self.signIn(probing: { real, yield in
            for forged in [try Self.replacing("state", with: "forged", in: real),
                           try Self.replacing("state", with: "", in: real),
                           try XCTUnwrap(URL(string: real.absoluteString.components(separatedBy: "?")[0]))] {
                let response = try await Self.get(forged)
                yield((response.status, String(decoding: response.body, as: UTF8.self)))
            }
            let response = try await Self.get(real)
            yield((response.status, String(decoding: response.body, as: UTF8.self)))
        }, harness: try makeLocalHarness(redirectURI: Self.anyPortRedirect))
        XCTAssertEqual(answers.map(\.0), [400, 400, 400, 200])
        for (_, page) in answers.dropLast() { XCTAssertTrue(page.contains("does not belong to the sign-in the app is waiting for"), page) }
        XCTAssertTrue(answers.last?.1.contains("Sign-in received") == true)
    }

    func testAForeignHostIsRefusedAndConsumesNothing() async throws {
        let seen = try await Self.signIn(probing: { real, yield in
            let port = real.port ?? 0
            for host in ["attacker.example:\(port)", "127.0.0.1:\(port + 1)", "127.0.0.1"] {
                yield(((try? await Self.get(real, host: host).status) ?? 0, ""))
            }
            yield(((try? await Self.get(real, host: "localhost:\(port)").status) ?? 0, ""))
        }, harness: try makeLocalHarness(redirectURI: Self.anyPortRedirect)).map(\.0)
        XCTAssertEqual(seen, [421, 421, 421, 200], "only a Host naming the listener reaches it")
    }

    func testSeventySlowOrIdleConnectionsDoNotKeepTheBrowserOut() async throws {
        let seen = try await Self.signIn(probing: { real, yield in
            let port = UInt16(real.port ?? 0)
            // 35 connections that say nothing, 35 that have begun a request and trickle it.
            var crowd: [Int32] = []
            for index in 0..<70 {
                let descriptor = Self.connect(port: port)
                if index % 2 == 1 { _ = "GET /callback?st".withCString { send(descriptor, $0, 15, Int32(MSG_NOSIGNAL)) } }
                crowd.append(descriptor)
            }
            yield(((try? await Self.get(real).status) ?? 0, ""))
            crowd.forEach { close($0) }
        }, harness: try makeLocalHarness(redirectURI: Self.anyPortRedirect)).map(\.0)
        XCTAssertEqual(seen, [200], "the real redirect is answered the first time")
    }

    /// Signs in through a browser that runs `probe` against the real redirect it was sent with
    /// (probe must end by completing it), and returns what the probe yielded: (status, page).
    private static func signIn(probing probe: @escaping @Sendable (URL, @Sendable ((Int, String)) -> Void) async throws -> Void,
                               harness: LocalHarness) async throws -> [(Int, String)] {
        let (answers, sink) = AsyncStream.makeStream(of: (Int, String).self)
        let agent = LoopbackBrowserAgent(timeout: 20, opener: .custom { url in
            Task {
                do {
                    try await probe(try await Self.redirect(for: url)) { sink.yield($0) }
                } catch {
                    sink.yield((0, "\(error)"))
                }
                sink.finish()
            }
        }, showInstruction: { _ in })
        let tokens = try await harness.client.signIn(agent: agent)
        XCTAssertEqual(tokens.subject, "erika", "what the probe sent did not end the sign-in")
        var seen: [(Int, String)] = []
        for await answer in answers { seen.append(answer) }
        return seen
    }

    private static func connect(port: UInt16) -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return descriptor
    }
}
