import ClientTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LoopbackHTTP
import SessionCore
import XCTest

/// The transports the package ships, against a real server on loopback: every test runs on
/// `CurlTransport` (Linux's default) and `URLSessionTransport`, and, where they share behaviour,
/// `AppURLSessionTransport`.
final class HTTPTransportTests: XCTestCase {
    private var server: LoopbackHTTPServer!
    /// Holds the "/silent" handlers' connection threads until the test ends (a test sends up to four).
    private let release = DispatchSemaphore(value: 0)
    /// Told when a "/silent" request reaches the server.
    private let silentArrival = Arrival()

    /// An expectation the server fulfils from its connection thread, once a test sets it.
    /// `@unchecked Sendable`: `expectation` is read and written only while holding `lock`.
    private final class Arrival: @unchecked Sendable {
        private let lock = NSLock()
        private var expectation: XCTestExpectation?
        func expect(_ expectation: XCTestExpectation) { lock.withLock { self.expectation = expectation } }
        func arrived() { lock.withLock { expectation }?.fulfill() }
    }

    override func setUpWithError() throws {
        let release = self.release
        let arrival = silentArrival
        server = try LoopbackHTTPServer { request in
            switch request.path {
            case "/ok": return .respond(HTTPServerResponse(status: 200, headers: [("Content-Type", "application/json")], body: Data(#"{"a":1}"#.utf8)))
            case "/redirect": return .respond(HTTPServerResponse(status: 302, headers: [("Location", "/ok")]))
            case "/huge": return .respond(HTTPServerResponse(status: 200, body: Data(repeating: 0x41, count: 64 * 1024)))
            case "/drop": return .dropConnection
            case "/basic-challenge":
                return .respond(HTTPServerResponse(status: 401, headers: [("WWW-Authenticate", #"Basic realm="op""#), ("Content-Type", "application/json")],
                                                   body: Data(#"{"error":"invalid_client"}"#.utf8)))
            case "/echo": return .respond(HTTPServerResponse(status: 200, body: Data("\(request.body.count)".utf8)))
            case "/silent":
                arrival.arrived()
                release.wait()
                return .dropConnection
            default: return .respond(.text("not found", status: 404))
            }
        }
    }

    override func tearDown() {
        for _ in 0..<4 { release.signal() }
        server.stop()
    }

    private func url(_ path: String) -> URL { server.baseURL.appendingPathComponent(path) }

    /// One of each transport with these limits, named for failure messages.
    private func transports(timeout: TimeInterval = 30, maximumResponseSize: Int = 1 << 20) -> [(String, HTTPTransport)] {
        var transports: [(String, HTTPTransport)] = [
            ("URLSessionTransport", URLSessionTransport(timeout: timeout, maximumResponseSize: maximumResponseSize)),
        ]
        #if os(Linux)
        transports.insert(("CurlTransport", CurlTransport(timeout: timeout, maximumResponseSize: maximumResponseSize)), at: 0)
        #endif
        return transports
    }

    func testReturnsStatusHeadersAndBody() async throws {
        for (name, transport) in transports() {
            let response = try await transport.send(HTTPRequest(method: "GET", url: url("/ok")))
            XCTAssertEqual(response.status, 200, name)
            XCTAssertEqual(response.header("content-type"), "application/json", name)
            XCTAssertEqual(response.body, Data(#"{"a":1}"#.utf8), name)
        }
    }

    /// RFC 6749 §5.2 answers a client that failed to authenticate with 401 and a Basic challenge:
    /// that answer is returned as it is (before, the task waited for credentials for ever on Linux).
    func testA401WithABasicChallengeIsReturnedNotWaitedOn() async throws {
        for (name, transport) in transports(timeout: 5) {
            for method in ["GET", "POST"] {
                let response = try await transport.send(HTTPRequest(method: method, url: url("/basic-challenge"),
                                                                    body: method == "POST" ? Data("a=b".utf8) : nil))
                XCTAssertEqual(response.status, 401, name)
                XCTAssertEqual(response.body, Data(#"{"error":"invalid_client"}"#.utf8), name)
            }
        }
    }

    func testDoesNotFollowRedirectsWhenTheRequestForbidsIt() async throws {
        for (name, transport) in transports() {
            let kept = try await transport.send(HTTPRequest(method: "POST", url: url("/redirect"), body: Data("x".utf8), followsRedirects: false))
            XCTAssertEqual(kept.status, 302, name)
            let followed = try await transport.send(HTTPRequest(method: "GET", url: url("/redirect"), followsRedirects: true))
            XCTAssertEqual(followed.status, 200, name)
            XCTAssertEqual(followed.body, Data(#"{"a":1}"#.utf8), "\(name): only the final answer's body")
        }
    }

    /// A second server: where a hostile server's redirect points. It answers everything, and
    /// counts what reaches it.
    private func impostor() throws -> LoopbackHTTPServer {
        let impostor = try LoopbackHTTPServer { _ in .respond(.text("impostor")) }
        addTeardownBlock { impostor.stop() }
        return impostor
    }

    /// The server answering every request with `status` and `Location: target`.
    private func redirecting(_ status: Int, to target: String) throws -> LoopbackHTTPServer {
        let redirecting = try LoopbackHTTPServer { _ in .respond(HTTPServerResponse(status: status, headers: [("Location", target)])) }
        addTeardownBlock { redirecting.stop() }
        return redirecting
    }

    /// Sends `request` and says whether it failed, without caring how (a refusal may be an error
    /// or the 3xx itself, as each transport reports it).
    private func sendIgnoringOutcome(_ transport: HTTPTransport, _ request: HTTPRequest) async -> Int? {
        try? await transport.send(request).status
    }

    func testNoRedirectLeadsToPlainHTTPOffLoopback() async throws {
        let impostor = try impostor()
        // `127.1` reaches the impostor, but is no loopback host by the endpoint rule (only
        // 127.x.x.x, ::1 and localhost are): to the rule, a plain-http server anywhere.
        let downgrade = try redirecting(301, to: "http://127.1:\(impostor.port)/.well-known/openid-configuration")
        for (name, transport) in transports(timeout: 5) {
            let status = await sendIgnoringOutcome(transport, HTTPRequest(method: "GET", url: downgrade.baseURL, headers: ["Authorization": "Bearer secret"]))
            XCTAssertNotEqual(status, 200, "\(name): the impostor's answer must not be taken")
        }
        XCTAssertEqual(impostor.acceptedConnections, 0, "no request reached the plain-http impostor")
    }

    func testProviderDocumentsFollowNoRedirectToAnotherOrigin() async throws {
        let impostor = try impostor()
        let elsewhere = try redirecting(302, to: impostor.baseURL.appendingPathComponent("jwks").absoluteString)
        let sameOrigin = try LoopbackHTTPServer { request in
            request.path == "/moved" ? .respond(HTTPServerResponse(status: 308, headers: [("Location", "/here")])) : .respond(.text("here"))
        }
        addTeardownBlock { sameOrigin.stop() }
        for (name, transport) in transports(timeout: 5) {
            var document = HTTPRequest(method: "GET", url: elsewhere.baseURL)
            document.redirects = .withinOrigin
            let status = await sendIgnoringOutcome(transport, document)
            XCTAssertNotEqual(status, 200, name)
            var moved = HTTPRequest(method: "GET", url: sameOrigin.baseURL.appendingPathComponent("moved"))
            moved.redirects = .withinOrigin
            let followed = try await transport.send(moved)
            XCTAssertEqual(String(decoding: followed.body, as: UTF8.self), "here", "\(name): a redirect within the origin is followed")
        }
        XCTAssertEqual(impostor.acceptedConnections, 0, "the document was not fetched from another origin")
    }

    func testARequestWithABodyFollowsNoRedirect() async throws {
        let impostor = try impostor()
        for status in [307, 308] {
            let resending = try redirecting(status, to: impostor.baseURL.appendingPathComponent("token").absoluteString)
            for (name, transport) in transports(timeout: 5) {
                let form = HTTPRequest(method: "POST", url: resending.baseURL, headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                       body: Data("grant_type=refresh_token&refresh_token=secret".utf8), followsRedirects: true)
                let answer = await sendIgnoringOutcome(transport, form)
                XCTAssertNotEqual(answer, 200, "\(name) \(status)")
            }
        }
        XCTAssertEqual(impostor.acceptedConnections, 0, "the body (a refresh token, a client secret) was sent once, to the server it was meant for")
    }

    func testCapsTheResponseSize() async throws {
        for (name, transport) in transports(maximumResponseSize: 16 * 1024) {
            do {
                _ = try await transport.send(HTTPRequest(method: "GET", url: url("/huge")))
                XCTFail("\(name): a body over the cap must be refused")
            } catch let error as HTTPTransportError {
                XCTAssertEqual(error.kind, .responseTooLarge, name)
            }
        }
    }

    func testTimesOutOnAServerThatNeverAnswers() async throws {
        for (name, transport) in transports(timeout: 1) {
            do {
                _ = try await transport.send(HTTPRequest(method: "GET", url: url("/silent")))
                XCTFail("\(name): a silent server must time out")
            } catch let error as HTTPTransportError {
                XCTAssertEqual(error.kind, .timedOut, name)
                XCTAssertTrue(error.mayHaveReachedServer, name)
            }
        }
    }

    func testAClosedPortCannotConnectAndCertainlyDidNotReachTheServer() async throws {
        let port = server.port
        server.stop()
        for (name, transport) in transports() {
            do {
                _ = try await transport.send(HTTPRequest(method: "GET", url: URL(string: "http://127.0.0.1:\(port)/ok")!))
                XCTFail("\(name): a closed port must fail")
            } catch let error as HTTPTransportError {
                XCTAssertEqual(error.kind, .cannotConnect, name)
                XCTAssertFalse(error.mayHaveReachedServer, name)
                XCTAssertTrue(error.detail.hasPrefix("the connection was refused"), "\(name): \(error.detail)")
            }
        }
        // Through the client, the error names the URL it could not reach (query values redacted).
        let configuration = try SessionConfiguration(issuer: URL(string: "http://127.0.0.1:\(port)/tenant")!, clientID: "c",
                                                     redirectURI: URL(string: "com.example.app:/cb")!)
        let client = SessionClient(configuration: configuration)
        let error = await assertSessionError(.cannotConnect, process: .configuration) { try await client.discover() }
        XCTAssertTrue(error?.message.hasPrefix("discovery: cannot connect to http://127.0.0.1:\(port)/tenant/.well-known/openid-configuration: "
                                               + "the connection was refused") == true, error?.message ?? "")
    }

    func testAPostWhoseConnectionDropsFailsAtOnceInsteadOfHanging() async throws {
        // FoundationNetworking would retry on a reused connection and resend the POST without its
        // body, which hangs until the timeout; a request with a body never reuses a connection.
        let post = HTTPRequest(method: "POST", url: url("/drop"), headers: ["Content-Type": "application/x-www-form-urlencoded"],
                               body: Data("grant_type=refresh_token".utf8))
        for (name, transport) in transports(timeout: 5) {
            _ = try await transport.send(HTTPRequest(method: "GET", url: url("/ok")))
            do {
                _ = try await transport.send(post)
                XCTFail("\(name): a dropped connection cannot give a response")
            } catch let error as HTTPTransportError {
                XCTAssertEqual(error.kind, .connectionLost, "\(name): \(error.detail)")
            }
        }
    }

    /// Every transport, the app-session one over an ephemeral session.
    private var cancellableTransports: [HTTPTransport] {
        transports(timeout: 60).map(\.1) + [AppURLSessionTransport(session: URLSession(configuration: .ephemeral))]
    }

    func testACallWhoseTaskIsCancelledBeforeItStartsEndsAtOnce() async throws {
        // The race this guards against (the task's end reported before the call was registered)
        // showed in about one run of twelve, so it is tried many times.
        let ok = HTTPRequest(method: "GET", url: url("/ok"))
        for transport in cancellableTransports {
            for attempt in 1...100 {
                let call = Task {
                    withUnsafeCurrentTask { $0?.cancel() }
                    return try await transport.send(ok)
                }
                guard await assertEndsCancelled(call, "\(type(of: transport)) call \(attempt)") else { return }
            }
        }
    }

    func testACallCancelledWhileTheServerIsSilentEndsAtOnce() async throws {
        let silent = HTTPRequest(method: "GET", url: url("/silent"))
        for transport in cancellableTransports {
            let arrived = expectation(description: "the request reached the server")
            silentArrival.expect(arrived)
            let call = Task { try await transport.send(silent) }
            await fulfillment(of: [arrived], timeout: 10)
            call.cancel()
            guard await assertEndsCancelled(call, "\(type(of: transport))") else { return }
        }
    }

    /// Waits (at most 10 s, a guard) for `call` to end and checks it ended as cancelled; false
    /// when it is still waiting.
    private func assertEndsCancelled(_ call: Task<HTTPResponse, Error>, _ label: String) async -> Bool {
        let ended = expectation(description: "\(label) ended")
        Task {
            _ = await call.result
            ended.fulfill()
        }
        guard await XCTWaiter().fulfillment(of: [ended], timeout: 10) == .completed else {
            XCTFail("\(label): the cancelled call is still waiting")
            return false
        }
        switch await call.result {
        case .success: XCTFail("\(label): a cancelled call has no response")
        case .failure(let error as HTTPTransportError): XCTAssertEqual(error.kind, .cancelled, "\(label): \(error.detail)")
        case .failure(let error): XCTFail("\(label): \(error)")
        }
        return true
    }

    func testSequentialGETsShareOneKeptAliveConnection() async throws {
        for (index, (name, transport)) in transports(timeout: 5).enumerated() {
            for _ in 0..<20 {
                let response = try await transport.send(HTTPRequest(method: "GET", url: url("/ok")))
                XCTAssertEqual(response.status, 200, name)
            }
            XCTAssertEqual(server.acceptedConnections, index + 1, name)
        }
    }

    func testAServerClosingAKeptAliveConnectionBreaksNeitherGETsNorAPOST() async throws {
        // FoundationNetworking resends a request whose reused connection closed unanswered, but a
        // POST without its body, which then hangs: POSTs must never go over a kept-alive connection.
        for (name, transport) in transports(timeout: 5) {
            _ = try await transport.send(HTTPRequest(method: "GET", url: url("/ok")))
            server.closeKeptAliveConnections()
            let again = try await transport.send(HTTPRequest(method: "GET", url: url("/ok")))
            XCTAssertEqual(again.status, 200, "\(name): the GET is sent again on a new connection")
            server.closeKeptAliveConnections()
            let body = Data("grant_type=refresh_token&refresh_token=abc".utf8)
            let posted = try await transport.send(HTTPRequest(method: "POST", url: url("/echo"),
                                                              headers: ["Content-Type": "application/x-www-form-urlencoded"], body: body))
            XCTAssertEqual(String(decoding: posted.body, as: UTF8.self), "\(body.count)", "\(name): the POST's body arrived whole")
            let after = try await transport.send(HTTPRequest(method: "GET", url: url("/ok")))
            XCTAssertEqual(after.status, 200, name)
        }
    }
}
