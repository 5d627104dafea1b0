import Foundation
import LoopbackHTTP
import SessionCore
import XCTest

/// The default transport against a real server on loopback.
final class URLSessionTransportTests: XCTestCase {
    private var server: LoopbackHTTPServer!
    /// Holds the "/silent" handler's connection thread until the test ends.
    private let release = DispatchSemaphore(value: 0)

    override func setUpWithError() throws {
        let release = self.release
        server = try LoopbackHTTPServer { request in
            switch request.path {
            case "/ok": return .respond(HTTPServerResponse(status: 200, headers: [("Content-Type", "application/json")], body: Data(#"{"a":1}"#.utf8)))
            case "/redirect": return .respond(HTTPServerResponse(status: 302, headers: [("Location", "/ok")]))
            case "/huge": return .respond(HTTPServerResponse(status: 200, body: Data(repeating: 0x41, count: 64 * 1024)))
            case "/drop": return .dropConnection
            case "/echo": return .respond(HTTPServerResponse(status: 200, body: Data("\(request.body.count)".utf8)))
            case "/silent":
                release.wait()
                return .dropConnection
            default: return .respond(.text("not found", status: 404))
            }
        }
    }

    override func tearDown() {
        release.signal()
        server.stop()
    }

    private func url(_ path: String) -> URL { server.baseURL.appendingPathComponent(path) }

    func testReturnsStatusHeadersAndBody() async throws {
        let response = try await URLSessionTransport().send(HTTPRequest(method: "GET", url: url("/ok")))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("content-type"), "application/json")
        XCTAssertEqual(response.body, Data(#"{"a":1}"#.utf8))
    }

    func testDoesNotFollowRedirectsWhenTheRequestForbidsIt() async throws {
        let transport = URLSessionTransport()
        let kept = try await transport.send(HTTPRequest(method: "POST", url: url("/redirect"), body: Data("x".utf8), followsRedirects: false))
        XCTAssertEqual(kept.status, 302)
        let followed = try await transport.send(HTTPRequest(method: "GET", url: url("/redirect"), followsRedirects: true))
        XCTAssertEqual(followed.status, 200)
    }

    func testCapsTheResponseSize() async throws {
        let transport = URLSessionTransport(maximumResponseSize: 16 * 1024)
        do {
            _ = try await transport.send(HTTPRequest(method: "GET", url: url("/huge")))
            XCTFail("a body over the cap must be refused")
        } catch let error as HTTPTransportError {
            XCTAssertEqual(error.kind, .responseTooLarge)
        }
    }

    func testTimesOutOnAServerThatNeverAnswers() async throws {
        let transport = URLSessionTransport(timeout: 1)
        do {
            _ = try await transport.send(HTTPRequest(method: "GET", url: url("/silent")))
            XCTFail("a silent server must time out")
        } catch let error as HTTPTransportError {
            XCTAssertEqual(error.kind, .timedOut)
            XCTAssertTrue(error.mayHaveReachedServer)
        }
    }

    func testAClosedPortCannotConnectAndCertainlyDidNotReachTheServer() async throws {
        let port = server.port
        server.stop()
        do {
            _ = try await URLSessionTransport().send(HTTPRequest(method: "GET", url: URL(string: "http://127.0.0.1:\(port)/ok")!))
            XCTFail("a closed port must fail")
        } catch let error as HTTPTransportError {
            XCTAssertEqual(error.kind, .cannotConnect)
            XCTAssertFalse(error.mayHaveReachedServer)
        }
    }

    func testAPostWhoseConnectionDropsFailsAtOnceInsteadOfHanging() async throws {
        // FoundationNetworking would retry on a reused connection and resend the POST without its
        // body, which hangs until the timeout; the transport does not reuse connections.
        let transport = URLSessionTransport(timeout: 5)
        _ = try await transport.send(HTTPRequest(method: "GET", url: url("/ok")))
        let post = HTTPRequest(method: "POST", url: url("/drop"), headers: ["Content-Type": "application/x-www-form-urlencoded"],
                               body: Data("grant_type=refresh_token".utf8))
        do {
            _ = try await transport.send(post)
            XCTFail("a dropped connection cannot give a response")
        } catch let error as HTTPTransportError {
            XCTAssertEqual(error.kind, .connectionLost, error.detail)
        }
    }

    func testSequentialGETsShareOneKeptAliveConnection() async throws {
        let transport = URLSessionTransport(timeout: 5)
        for _ in 0..<20 {
            let response = try await transport.send(HTTPRequest(method: "GET", url: url("/ok")))
            XCTAssertEqual(response.status, 200)
        }
        XCTAssertEqual(server.acceptedConnections, 1)
    }

    func testAServerClosingAKeptAliveConnectionBreaksNeitherGETsNorAPOST() async throws {
        // FoundationNetworking resends a request whose reused connection closed unanswered, but a
        // POST without its body, which then hangs: POSTs must never go over a kept-alive connection.
        let transport = URLSessionTransport(timeout: 5)
        _ = try await transport.send(HTTPRequest(method: "GET", url: url("/ok")))
        server.closeKeptAliveConnections()
        let again = try await transport.send(HTTPRequest(method: "GET", url: url("/ok")))
        XCTAssertEqual(again.status, 200, "the GET is sent again on a new connection")
        server.closeKeptAliveConnections()
        let body = Data("grant_type=refresh_token&refresh_token=abc".utf8)
        let posted = try await transport.send(HTTPRequest(method: "POST", url: url("/echo"),
                                                          headers: ["Content-Type": "application/x-www-form-urlencoded"], body: body))
        XCTAssertEqual(String(decoding: posted.body, as: UTF8.self), "\(body.count)", "the POST's body arrived whole")
        let after = try await transport.send(HTTPRequest(method: "GET", url: url("/ok")))
        XCTAssertEqual(after.status, 200)
    }
}
