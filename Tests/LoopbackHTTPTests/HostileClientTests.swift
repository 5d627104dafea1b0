import Foundation
@testable import LoopbackHTTP
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// LoopbackHTTP against clients that misbehave on purpose: it keeps answering the others, its
/// threads stay bounded, and `stop()` returns promptly.
final class HostileClientTests: XCTestCase {
    private func server(_ edit: (inout LoopbackHTTPServer.Limits) -> Void = { _ in }) throws -> LoopbackHTTPServer {
        var limits = LoopbackHTTPServer.Limits()
        edit(&limits)
        let big = Data(repeating: 0x62, count: 16 << 20)
        let server = try LoopbackHTTPServer(limits: limits) { request in
            if request.path == "/big" { return .respond(HTTPServerResponse(status: 200, body: big)) }
            return .respond(.text("\(request.method) \(request.path) \(request.body.count)"))
        }
        addTeardownBlock { server.stop() }
        return server
    }

    private func assertServes(_ server: LoopbackHTTPServer, _ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let client = try RawClient(port: server.port)
        client.send("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(client.readResponse()?.body, "GET \(path) 0", file: file, line: line)
    }

    func testAClientSendingAByteAtATimeIsCutOffAtTheRequestDeadline() throws {
        let server = try server { $0.requestTimeout = 1; $0.idleTimeout = 5 }
        let slow = try RawClient(port: server.port)
        let head = Array("GET /slow HTTP/1.1\r\nHost: x\r\nX-Slow: \(String(repeating: "s", count: 40))\r\n\r\n".utf8)
        let sent = Counter()
        let descriptor = slow.descriptor
        let senderDone = DispatchSemaphore(value: 0)
        let sender = Thread {
            defer { senderDone.signal() }
            // The attacker's pace (a byte every 0.1 s: the head would take over 7 s), not a wait.
            for byte in head {
                guard RawClient.sendNow(descriptor, [byte]) else { return }
                sent.increment()
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
        sender.start()
        try assertServes(server, "/meanwhile")
        XCTAssertNil(slow.readResponse(), "the slow request gets no answer: the connection is closed")
        // The sender stops at its first write after the close; until then `slow` keeps the
        // descriptor, so its number cannot go to another test's socket.
        XCTAssertEqual(senderDone.wait(timeout: .now() + 10), .success)
        XCTAssertLessThan(sent.value, head.count, "closed before the head was complete")
        withExtendedLifetime(slow) {}
    }

    func testAThousandIdleConnectionsLeaveRoomForARealClient() throws {
        let server = try server()
        var idle: [RawClient] = []
        for _ in 0..<1_000 { idle.append(try RawClient(port: server.port)) }
        try assertServes(server, "/real")
        // The server's own count: the process's threads also count Dispatch's and XCTest's workers.
        XCTAssertLessThanOrEqual(server.openConnections, server.limits.maximumConnections,
                                 "one thread per connection served, at most the limit")
        let closed = idle.filter { $0.isClosedByServerNow() }.count
        XCTAssertGreaterThanOrEqual(closed, 1_000 - server.limits.maximumConnections, "the oldest idle connections made room")
        let stopped = expectation(description: "stop returned")
        Thread { server.stop(); stopped.fulfill() }.start()
        wait(for: [stopped], timeout: 5)
        withExtendedLifetime(idle) {}
    }

    func testRequestsAtEveryLimitAreServedAndOneByteOverIsRefused() throws {
        let server = try server()
        func head(total: Int) -> String {
            let start = "GET /limit HTTP/1.1\r\nHost: x\r\nX-Filler: "
            return start + String(repeating: "f", count: total - start.utf8.count) + "\r\n\r\n"
        }
        let atHeaderLimit = try RawClient(port: server.port)
        atHeaderLimit.send(head(total: server.limits.maximumHeaderBytes))
        XCTAssertEqual(atHeaderLimit.readResponse()?.status, 200)
        let overHeaderLimit = try RawClient(port: server.port)
        overHeaderLimit.send(head(total: server.limits.maximumHeaderBytes + 1))
        XCTAssertEqual(overHeaderLimit.readResponse()?.status, 431)
        let longLine = try RawClient(port: server.port)
        longLine.send("GET /\(String(repeating: "l", count: 20 * 1024)) HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(longLine.readResponse()?.status, 431)

        for (length, status) in [(server.limits.maximumBodyBytes, 200), (server.limits.maximumBodyBytes + 1, 413)] {
            let client = try RawClient(port: server.port)
            client.send("POST /body HTTP/1.1\r\nHost: x\r\nContent-Length: \(length)\r\n\r\n")
            if status == 200 { client.send(Data(repeating: 0x61, count: length)) }
            let response = client.readResponse()
            XCTAssertEqual(response?.status, status, "\(length) bytes")
            if status == 200 { XCTAssertEqual(response?.body, "POST /body \(length)") }
        }
        try assertServes(server, "/after")
    }

    func testPipelinedRequestsAreAnsweredInOrder() throws {
        let server = try server()
        let client = try RawClient(port: server.port)
        client.send("GET /one HTTP/1.1\r\nHost: x\r\n\r\nPOST /two HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabcGET /three HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(client.readResponse()?.body, "GET /one 0")
        XCTAssertEqual(client.readResponse()?.body, "POST /two 3")
        XCTAssertEqual(client.readResponse()?.body, "GET /three 0")
    }

    func testAClientResettingMidResponseHarmsNoOne() throws {
        let server = try server()
        for _ in 0..<5 {
            let client = try RawClient(port: server.port)
            client.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertTrue(client.readSome(), "the 16 MiB answer has started")
            client.reset()
        }
        try assertServes(server, "/after-resets")
        // Without stop's help: each writer ends at its first failed write (the wait is a failure guard).
        XCTAssertTrue(server.waitUntilOpenConnections(atMost: 0, timeout: 5),
                      "the writers of the reset connections ended (\(server.openConnections) still open)")
        let stopped = expectation(description: "stop returned")
        Thread { server.stop(); stopped.fulfill() }.start()
        wait(for: [stopped], timeout: 5)
    }
}

/// A count several threads update. `@unchecked Sendable`: `count` is read and written only while
/// holding `lock`.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
