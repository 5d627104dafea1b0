import Foundation
import SessionCore
import XCTest

/// The default transport against a real socket on loopback.
final class URLSessionTransportTests: XCTestCase {
    private var server: CannedHTTPServer!

    override func setUpWithError() throws {
        server = try CannedHTTPServer(responses: [
            "/ok": CannedHTTPServer.response(status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"a":1}"#.utf8)),
            "/redirect": CannedHTTPServer.response(status: 302, headers: ["Location": "/ok"]),
            "/huge": CannedHTTPServer.response(status: 200, body: Data(repeating: 0x41, count: 64 * 1024)),
            "/silent": nil,
        ])
    }

    override func tearDown() {
        server.stop()
    }

    func testReturnsStatusHeadersAndBody() async throws {
        let response = try await URLSessionTransport().send(HTTPRequest(method: "GET", url: server.url("/ok")))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("content-type"), "application/json")
        XCTAssertEqual(response.body, Data(#"{"a":1}"#.utf8))
    }

    func testDoesNotFollowRedirectsWhenTheRequestForbidsIt() async throws {
        let transport = URLSessionTransport()
        let kept = try await transport.send(HTTPRequest(method: "POST", url: server.url("/redirect"), body: Data("x".utf8), followsRedirects: false))
        XCTAssertEqual(kept.status, 302)
        let followed = try await transport.send(HTTPRequest(method: "GET", url: server.url("/redirect"), followsRedirects: true))
        XCTAssertEqual(followed.status, 200)
    }

    func testCapsTheResponseSize() async throws {
        let transport = URLSessionTransport(maximumResponseSize: 16 * 1024)
        do {
            _ = try await transport.send(HTTPRequest(method: "GET", url: server.url("/huge")))
            XCTFail("a body over the cap must be refused")
        } catch let error as HTTPTransportError {
            XCTAssertEqual(error.kind, .responseTooLarge)
        }
    }

    func testTimesOutOnAServerThatNeverAnswers() async throws {
        let transport = URLSessionTransport(timeout: 1)
        do {
            _ = try await transport.send(HTTPRequest(method: "GET", url: server.url("/silent")))
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
}
