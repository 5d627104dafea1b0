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

    func testAPostNeverGoesOverAConnectionTheServerMayCloseUnanswered() async throws {
        // A server may keep a connection after answering, though asked to close it, and close it
        // as the next request arrives. FoundationNetworking then resends that request on a new
        // connection, but a POST without its body, and it hangs until the timeout.
        let server = try ReusingServer()
        defer { server.stop() }
        let transport = URLSessionTransport(timeout: 3)
        let endpoint = URL(string: "http://127.0.0.1:\(server.port)/token")!
        _ = try await transport.send(HTTPRequest(method: "GET", url: endpoint))
        let body = Data("grant_type=refresh_token&refresh_token=abc".utf8)
        let response = try await transport.send(HTTPRequest(method: "POST", url: endpoint,
                                                            headers: ["Content-Type": "application/x-www-form-urlencoded"], body: body))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "\(body.count)", "the body arrived whole")
        XCTAssertEqual(server.requests.map(\.method), ["GET", "POST"])
        XCTAssertNotEqual(server.requests.first?.connection, server.requests.last?.connection, "the POST had a connection of its own")
    }
}
