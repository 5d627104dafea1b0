import Foundation
@testable import LoopbackHTTP
import XCTest
#if canImport(Glibc)
import Glibc
#endif

final class LoopbackHTTPServerTests: XCTestCase {
    private func echoServer(limits: LoopbackHTTPServer.Limits = .init(), host: LoopbackHTTPServer.Host = .ipv4) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer(host: host, limits: limits) { request in
            if request.path == "/drop" { return .dropConnection }
            let query = request.queryItems.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
            return .respond(.text("\(request.method) \(request.path) [\(query)] \(request.body.count)"))
        }
    }

    func testServesARequestOnAnEphemeralLoopbackPort() throws {
        let server = try echoServer()
        defer { server.stop() }
        XCTAssertNotEqual(server.port, 0)
        XCTAssertEqual(server.baseURL.host, "127.0.0.1")
        let client = try RawClient(port: server.port)
        client.send("POST /token?a=1&b=x%20y HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\nhello")
        let response = try XCTUnwrap(client.readResponse())
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.body, "POST /token [a=1,b=x y] 5")
    }

    /// Limits that would let a silent client hold a thread for ever (a timeout of 0 is none to
    /// the socket), or that a timer cannot take, are refused before anything is bound.
    func testLimitsNoConnectionCouldKeepAreRefused() throws {
        let edits: [(String, (inout LoopbackHTTPServer.Limits) -> Void)] = [
            ("idle 0", { $0.idleTimeout = 0 }), ("idle infinite", { $0.idleTimeout = .infinity }),
            ("request NaN", { $0.requestTimeout = .nan }), ("request past a day", { $0.requestTimeout = 1e12 }),
            ("no header bytes", { $0.maximumHeaderBytes = 0 }), ("negative body", { $0.maximumBodyBytes = -1 }),
            ("no connections", { $0.maximumConnections = 0 }),
        ]
        for (name, edit) in edits {
            var limits = LoopbackHTTPServer.Limits()
            edit(&limits)
            XCTAssertThrowsError(try echoServer(limits: limits), name) { error in
                XCTAssertEqual((error as? POSIXError)?.code, .EINVAL, name)
            }
        }
        var longest = LoopbackHTTPServer.Limits()
        longest.idleTimeout = 86_400
        longest.requestTimeout = 86_400
        longest.maximumBodyBytes = 0
        let server = try echoServer(limits: longest)
        server.stop()
    }

    func testBindsIPv6Loopback() throws {
        let server = try echoServer(host: .ipv6)
        defer { server.stop() }
        XCTAssertEqual(server.baseURL.absoluteString, "http://[::1]:\(server.port)")
        let client = try RawClient(port: server.port, ipv6: true)
        client.send("GET /v6 HTTP/1.1\r\nHost: [::1]\r\n\r\n")
        XCTAssertEqual(client.readResponse()?.body, "GET /v6 [] 0")
    }

    func testKeepsTheConnectionAliveForSeveralRequests() throws {
        let server = try echoServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("GET /one HTTP/1.1\r\nHost: x\r\n\r\nGET /two HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(client.readResponse()?.body, "GET /one [] 0")
        XCTAssertEqual(client.readResponse()?.headers["connection"], "keep-alive")
        client.send("GET /three HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let last = client.readResponse()
        XCTAssertEqual(last?.body, "GET /three [] 0")
        XCTAssertEqual(last?.headers["connection"], "close")
        XCTAssertTrue(client.isClosedByServer())
    }

    func testClosingKeptAliveConnectionsDropsTheirNextRequestOnly() throws {
        let server = try echoServer()
        defer { server.stop() }
        let kept = try RawClient(port: server.port)
        kept.send("GET /one HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(kept.readResponse()?.body, "GET /one [] 0")
        let fresh = try RawClient(port: server.port)
        server.closeKeptAliveConnections()
        kept.send("GET /two HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertNil(kept.readResponse(), "closed without an answer")
        fresh.send("GET /first HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(fresh.readResponse()?.body, "GET /first [] 0", "a connection's first request is served")
        let later = try RawClient(port: server.port)
        later.send("GET /later HTTP/1.1\r\nHost: x\r\n\r\nGET /again HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(later.readResponse()?.body, "GET /later [] 0")
        XCTAssertEqual(later.readResponse()?.body, "GET /again [] 0", "connections accepted after the call are kept")
        XCTAssertEqual(server.acceptedConnections, 3)
    }

    func testGarbageGets400AndTheServerKeepsServing() throws {
        let server = try echoServer()
        defer { server.stop() }
        for garbage in [Data([0x00, 0xFF, 0x13, 0x37, 0x0D, 0x0A, 0x0D, 0x0A]), Data("HELLO\r\n\r\n".utf8),
                        Data("GET /x HTTP/1.1\r\nno colon here\r\n\r\n".utf8), Data("GET /x HTTP/1.1\r\n\r\n".utf8),
                        Data("GET /x HTTP/1.1\r\nHost: x\r\nContent-Length: -3\r\n\r\n".utf8),
                        Data("GET /x HTTP/1.1\r\nHost: x\r\nContent-Length: +3\r\n\r\n".utf8),
                        Data("GET /x HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n".utf8)] {
            let client = try RawClient(port: server.port)
            client.send(garbage)
            XCTAssertEqual(client.readResponse()?.status, 400, String(decoding: garbage, as: UTF8.self))
            XCTAssertTrue(client.isClosedByServer())
        }
        let client = try RawClient(port: server.port)
        client.send("GET /still HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(client.readResponse()?.status, 200)
    }

    func testLimitsOnHeadersBodyAndTransferCoding() throws {
        let server = try echoServer()
        defer { server.stop() }
        let big = try RawClient(port: server.port)
        big.send("GET / HTTP/1.1\r\nHost: x\r\nX-Filler: \(String(repeating: "a", count: 17 * 1024))\r\n\r\n")
        XCTAssertEqual(big.readResponse()?.status, 431)
        let body = try RawClient(port: server.port)
        body.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: \((1 << 20) + 1)\r\n\r\n")
        XCTAssertEqual(body.readResponse()?.status, 413)
        let chunked = try RawClient(port: server.port)
        chunked.send("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
        XCTAssertEqual(chunked.readResponse()?.status, 501)
    }

    func testTruncatedRequestsAndSilentClientsAreDropped() throws {
        var limits = LoopbackHTTPServer.Limits()
        limits.idleTimeout = 0.3
        let server = try echoServer(limits: limits)
        defer { server.stop() }
        do {
            let truncated = try RawClient(port: server.port)
            truncated.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc")
        }
        let silent = try RawClient(port: server.port)
        silent.send("GET / HTTP/1.1\r\nHost:")
        XCTAssertTrue(silent.isClosedByServer(), "a client that never finishes is disconnected after the idle timeout")
        let client = try RawClient(port: server.port)
        client.send("GET /after HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(client.readResponse()?.body, "GET /after [] 0")
    }

    func testANewConnectionTakesTheLongestIdleOnesPlace() throws {
        var limits = LoopbackHTTPServer.Limits()
        limits.maximumConnections = 2
        let server = try echoServer(limits: limits)
        defer { server.stop() }
        let first = try RawClient(port: server.port)
        first.send("GET /first HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(first.readResponse()?.body, "GET /first [] 0", "first is now idle, waiting for its next request")
        let second = try RawClient(port: server.port)
        second.send("GET /second HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(second.readResponse()?.body, "GET /second [] 0")
        // A client reads its answer before the server's thread is back to waiting for the next.
        let bothIdle = expectation(for: NSPredicate { _, _ in server.idleConnections == 2 }, evaluatedWith: nil)
        wait(for: [bothIdle], timeout: 10)
        let third = try RawClient(port: server.port)
        third.send("GET /third HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(third.readResponse()?.body, "GET /third [] 0")
        XCTAssertTrue(first.isClosedByServer(), "the longest-idle connection made room")
        second.send("GET /again HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(second.readResponse()?.body, "GET /again [] 0")
    }

    /// A server of two connections, both having their requests (`/first`, `/second`) answered
    /// by handlers that wait for their `releases`; other paths are answered at once.
    private func serverWithTwoHeldConnections() throws -> (server: LoopbackHTTPServer, first: RawClient, second: RawClient,
                                                           releases: [String: DispatchSemaphore]) {
        var limits = LoopbackHTTPServer.Limits()
        limits.maximumConnections = 2
        let arrived = DispatchSemaphore(value: 0)
        let releases = ["/first": DispatchSemaphore(value: 0), "/second": DispatchSemaphore(value: 0)]
        let server = try LoopbackHTTPServer(limits: limits) { request in
            if releases[request.path] != nil { arrived.signal() }
            releases[request.path]?.wait()
            return .respond(.text("answered \(request.path)"))
        }
        let first = try RawClient(port: server.port), second = try RawClient(port: server.port)
        first.send("GET /first HTTP/1.1\r\nHost: x\r\n\r\n")
        second.send("GET /second HTTP/1.1\r\nHost: x\r\n\r\n")
        // Both handlers are running: neither connection is idle.
        XCTAssertEqual(arrived.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(arrived.wait(timeout: .now() + 10), .success)
        return (server, first, second, releases)
    }

    func testWhenEveryConnectionIsBusyANewOneGets503() throws {
        let (server, first, second, releases) = try serverWithTwoHeldConnections()
        defer { server.stop() }
        let third = try RawClient(port: server.port)
        XCTAssertEqual(third.readResponse()?.status, 503)
        releases.values.forEach { $0.signal() }
        XCTAssertEqual(first.readResponse()?.body, "answered /first")
        XCTAssertEqual(second.readResponse()?.body, "answered /second")
    }

    /// A connection that has just sent its answer is not idle yet until its thread waits for
    /// the next request; a newcomer arriving in that moment waits for it instead of getting 503.
    func testANewcomerWaitsForAConnectionThatIsFinishingItsAnswer() throws {
        let (server, first, second, releases) = try serverWithTwoHeldConnections()
        defer { server.stop() }
        let third = try RawClient(port: server.port)
        third.send("GET /third HTTP/1.1\r\nHost: x\r\n\r\n")
        // The server has taken the third connection and is looking for room for it.
        let admitted = expectation(for: NSPredicate { _, _ in server.acceptedConnections == 3 }, evaluatedWith: nil)
        wait(for: [admitted], timeout: 10)
        releases["/first"]?.signal()
        XCTAssertEqual(first.readResponse()?.body, "answered /first")
        XCTAssertEqual(third.readResponse()?.body, "answered /third", "the first connection, idle once answered, made room")
        releases["/second"]?.signal()
        XCTAssertEqual(second.readResponse()?.body, "answered /second")
    }

    func testAHandlerCanDropTheConnection() throws {
        let server = try echoServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("GET /drop HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertNil(client.readResponse())
    }

    func testServesConcurrentConnections() throws {
        let server = try echoServer()
        defer { server.stop() }
        let clients = try (0..<20).map { _ in try RawClient(port: server.port) }
        for (index, client) in clients.enumerated() { client.send("GET /c\(index) HTTP/1.1\r\nHost: x\r\n\r\n") }
        for (index, client) in clients.enumerated().reversed() {
            XCTAssertEqual(client.readResponse()?.body, "GET /c\(index) [] 0")
        }
    }

    func testStopFreesThePort() throws {
        let server = try echoServer()
        let port = server.port
        let open = try RawClient(port: port)
        server.stop()
        XCTAssertTrue(server.waitUntilStopped(timeout: 5))
        XCTAssertTrue(open.isClosedByServer())
        XCTAssertThrowsError(try RawClient(port: port))
        let again = try LoopbackHTTPServer(port: port) { _ in .respond(.text("again")) }
        defer { again.stop() }
        let client = try RawClient(port: port)
        client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(client.readResponse()?.body, "again")
    }

    func testATaskCanWaitForThePortToBeFree() async throws {
        let server = try echoServer()
        let port = server.port
        server.stop()
        await server.waitUntilStopped()
        await server.waitUntilStopped()
        let again = try LoopbackHTTPServer(port: port) { _ in .respond(.text("again")) }
        again.stop()
        await again.waitUntilStopped()
    }

    func testBindingAPortInUseFails() throws {
        let server = try echoServer()
        defer { server.stop() }
        XCTAssertThrowsError(try LoopbackHTTPServer(port: server.port) { _ in .dropConnection })
    }
}
