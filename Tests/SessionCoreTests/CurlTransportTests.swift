#if os(Linux)
import Foundation
import LoopbackHTTP
import SessionCore
import XCTest

/// What `CurlTransport` does beyond the behaviour every transport shares (HTTPTransportTests).
final class CurlTransportTests: XCTestCase {
    private var server: LoopbackHTTPServer!

    override func setUpWithError() throws {
        server = try LoopbackHTTPServer { request in
            switch request.path {
            case "/ok": return .respond(.text("ok"))
            case "/twice": return .respond(HTTPServerResponse(status: 200, headers: [("Vary", "Accept"), ("vary", "Origin")]))
            case "/to-a-file": return .respond(HTTPServerResponse(status: 302, headers: [("Location", "file:///etc/hostname")]))
            case "/one-huge-field": return .respond(HTTPServerResponse(status: 200, headers: [("X-Huge", String(repeating: "h", count: 100 * 1024))]))
            case "/echo-headers":
                let lines = request.headers.map { "\($0.name.lowercased()): \($0.value)" }.sorted()
                return .respond(.text(lines.joined(separator: "\n")))
            default: return .respond(.text("not found", status: 404))
            }
        }
    }

    override func tearDown() {
        server.stop()
    }

    private func url(_ path: String) -> URL { server.baseURL.appendingPathComponent(path) }

    func testAHeaderValueWithALineBreakIsRefusedBeforeAnythingIsSent() async throws {
        let smuggling = HTTPRequest(method: "GET", url: url("/ok"), headers: ["X-Note": "a\r\nAuthorization: Bearer stolen"])
        do {
            _ = try await CurlTransport(timeout: 5).send(smuggling)
            XCTFail("a header field with a line break must not be sent")
        } catch let error as HTTPTransportError {
            XCTAssertEqual(error.kind, .cannotConnect)
            XCTAssertFalse(error.detail.contains("stolen"), "the value is not repeated: \(error.detail)")
        }
        XCTAssertEqual(server.acceptedConnections, 0)
    }

    /// Any timeout a caller can write is one libcurl can take: "never" (or a number past what it
    /// takes) is the longest it takes, about 24 days.
    func testATimeoutOfAnySizeIsOneLibcurlCanTake() async throws {
        for timeout in [TimeInterval.infinity, .greatestFiniteMagnitude, 1e12, .nan] {
            let response = try await CurlTransport(timeout: timeout).send(HTTPRequest(method: "GET", url: url("/ok")))
            XCTAssertEqual(response.status, 200, "timeout \(timeout)")
        }
    }

    func testAMethodThatIsNotATokenIsRefusedBeforeAnythingIsSent() async throws {
        for method in ["GET /ok HTTP/1.1\r\nX-Smuggled: 1\r\n\r\nGET", "PO ST", ""] {
            do {
                _ = try await CurlTransport(timeout: 5).send(HTTPRequest(method: method, url: url("/ok")))
                XCTFail("\(method.debugDescription) must not be sent")
            } catch let error as HTTPTransportError {
                XCTAssertEqual(error.kind, .cannotConnect)
            }
        }
        XCTAssertEqual(server.acceptedConnections, 0)
    }

    func testARedirectToAnotherSchemeIsNotFollowed() async throws {
        do {
            let response = try await CurlTransport(timeout: 5).send(HTTPRequest(method: "GET", url: url("/to-a-file")))
            XCTFail("a redirect to file: must not be followed; got \(response.status) \(String(decoding: response.body, as: UTF8.self))")
        } catch let error as HTTPTransportError {
            XCTAssertEqual(error.kind, .connectionLost, "the first request did reach the server: \(error.detail)")
            XCTAssertTrue(error.detail.contains("redirect"), error.detail)
        }
    }

    func testAHeaderFloodEndsItsTransferAndDelaysNoOther() async throws {
        // 20,000 fields: once minutes of work on the one driver thread, which every transfer waited behind.
        let flooding = try LoopbackHTTPServer { _ in
            .respond(HTTPServerResponse(status: 200, headers: (0..<20_000).map { ("X-Flood-\($0)", "value") }))
        }
        defer { flooding.stop() }
        let transport = CurlTransport(timeout: 30)
        let bothEnded = expectation(description: "the flood and another request ended")
        bothEnded.expectedFulfillmentCount = 2
        let floodRequest = HTTPRequest(method: "GET", url: flooding.baseURL.appendingPathComponent("flood"))
        let flood = Task {
            defer { bothEnded.fulfill() }
            return try await transport.send(floodRequest)
        }
        let otherRequest = HTTPRequest(method: "GET", url: url("/ok"))
        let other = Task {
            defer { bothEnded.fulfill() }
            return try await transport.send(otherRequest)
        }
        // A failure guard: both end in well under a second.
        await fulfillment(of: [bothEnded], timeout: 20)
        do {
            let response = try await flood.value
            XCTFail("a flood of header fields must end the transfer; got \(response.status) with \(response.headers.count) fields")
        } catch let error as HTTPTransportError {
            XCTAssertEqual(error.kind, .responseTooLarge, error.detail)
            XCTAssertTrue(error.detail.contains("256 fields"), error.detail)
        }
        let answer = try await other.value
        XCTAssertEqual(String(decoding: answer.body, as: UTF8.self), "ok")
    }

    /// One header line larger than libcurl takes (100 KiB) ends in `responseTooLarge`, as a flood
    /// does, not in "the connection failed (curl 27)".
    func testOneHeaderLineOverLibcurlsLimitIsResponseTooLarge() async throws {
        do {
            let response = try await CurlTransport(timeout: 5).send(HTTPRequest(method: "GET", url: url("/one-huge-field")))
            XCTFail("a 100 KiB header line must end the transfer; got \(response.status)")
        } catch let error as HTTPTransportError {
            XCTAssertEqual(error.kind, .responseTooLarge, error.detail)
        }
    }

    func testAResponseAtTheHeaderBoundsIsTakenWhole() async throws {
        // 250 fields of ours beside the server's own, each line about 200 bytes: under both bounds.
        let value = String(repeating: "v", count: 180)
        let generous = try LoopbackHTTPServer { _ in
            .respond(HTTPServerResponse(status: 200, headers: (0..<250).map { ("X-Field-\($0)", value) }))
        }
        defer { generous.stop() }
        let response = try await CurlTransport(timeout: 10).send(HTTPRequest(method: "GET", url: generous.baseURL))
        XCTAssertEqual(response.header("x-field-249"), value)
        XCTAssertEqual(response.header("X-FIELD-0"), value)
    }

    func testAFieldSentTwiceIsOneList() async throws {
        let response = try await CurlTransport(timeout: 5).send(HTTPRequest(method: "GET", url: url("/twice")))
        XCTAssertEqual(response.header("vary"), "Accept, Origin")
    }

    func testTheRequestCarriesItsOwnFieldsAndNoExpectation() async throws {
        let response = try await CurlTransport(timeout: 5).send(HTTPRequest(
            method: "POST", url: url("/echo-headers"), headers: ["Content-Type": "application/x-www-form-urlencoded", "X-Trace": "1"],
            body: Data(repeating: 0x61, count: 4096)))
        let lines = String(decoding: response.body, as: UTF8.self).split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("x-trace: 1"), "\(lines)")
        XCTAssertTrue(lines.contains("content-length: 4096"), "\(lines)")
        XCTAssertTrue(lines.contains("connection: close"), "a request with a body closes its connection: \(lines)")
        XCTAssertFalse(lines.contains { $0.hasPrefix("expect:") }, "no 100-continue round trip: \(lines)")
    }

    func testManyConcurrentRequestsAllGetTheirOwnAnswerOverAtMostSixConnections() async throws {
        let transport = CurlTransport(timeout: 10)
        let ok = url("/ok"), missing = url("/missing")
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<40 {
                group.addTask {
                    try await transport.send(HTTPRequest(method: "GET", url: index.isMultiple(of: 2) ? ok : missing)).status
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        XCTAssertEqual(statuses.filter { $0 == 200 }.count, 20)
        XCTAssertEqual(statuses.filter { $0 == 404 }.count, 20)
        XCTAssertLessThanOrEqual(server.acceptedConnections, 6, "requests beyond six connections to one host wait for one")
    }
}
#endif
