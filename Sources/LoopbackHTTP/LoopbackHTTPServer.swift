import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 server bound only to a loopback address: the redirect receiver of
/// `LoopbackBrowserAgent` and the transport of `LocalProvider`.
///
/// It serves each connection on its own thread with keep-alive, enforces a header limit
/// (16 KiB, 431), a body limit (1 MiB, 413), an idle timeout, a deadline for each request once
/// it has started (so a client sending a byte now and then cannot hold a thread), and a
/// connection limit (64): a new connection takes the place of the longest-idle one, and is
/// answered 503 only when every connection is in the middle of a request. It answers a
/// malformed request with 400 and keeps serving others. The handler runs on the connection's
/// thread and may block it (to inject a delay, for instance). ``stop()`` closes every socket and frees the port; call it
/// when done, since the accept thread keeps the server alive until then.
///
/// `@unchecked Sendable`: `connections`, `stopped`, `listenerOpen`, `accepted` and
/// `keptAliveCutoff` are only accessed while holding `lock`; everything else is immutable after
/// `init`.
public final class LoopbackHTTPServer: @unchecked Sendable {
    /// Which loopback address to bind.
    public enum Host: String, Sendable {
        /// 127.0.0.1
        case ipv4 = "127.0.0.1"
        /// ::1
        case ipv6 = "::1"
    }

    /// The server's limits.
    public struct Limits: Sendable {
        /// Largest request head (request line and headers), in bytes.
        public var maximumHeaderBytes = 16 * 1024
        /// Largest request body, in bytes.
        public var maximumBodyBytes = 1 << 20
        /// Seconds a connection may stay silent, mid-request or between requests.
        public var idleTimeout: TimeInterval = 10
        /// Seconds a request may take to arrive whole, from its first byte to its last.
        public var requestTimeout: TimeInterval = 10
        /// Connections served at once. One more takes the place of the longest-idle connection
        /// (one waiting for its next request); when none is idle it is answered 503 and closed.
        public var maximumConnections = 64

        /// The defaults: 16 KiB of headers, 1 MiB of body, 10 s idle, 10 s per request, 64 connections.
        public init() {}
    }

    /// The function that answers requests. Called on a connection thread.
    public typealias Handler = @Sendable (HTTPServerRequest) -> HTTPServerReply

    /// The address bound.
    public let host: Host
    /// The port bound (the ephemeral one chosen by the system when 0 was asked for).
    public let port: UInt16
    /// The server's limits.
    public let limits: Limits
    private let handler: Handler
    private let listener: Int32
    private let lock = NSLock()
    /// Open connections: idle (waiting for a request) since a time, or busy with one.
    private var connections: [Int32: ConnectionState] = [:]
    private var stopped = false
    /// Connections accepted so far; each one's number is its position in that count.
    private var accepted = 0
    /// Connections numbered up to this one are closed at their next request (``closeKeptAliveConnections()``).
    private var keptAliveCutoff = 0
    /// Signalled by the accept thread once it has closed the listening socket.
    private let acceptFinished = DispatchSemaphore(value: 0)
    private var listenerOpen = true

    /// Binds `host:port` (0 for an ephemeral port) and starts accepting connections.
    /// - Throws: `POSIXError` when the socket cannot be bound (port in use, for instance).
    public init(host: Host = .ipv4, port: UInt16 = 0, limits: Limits = Limits(), handler: @escaping Handler) throws {
        self.host = host
        self.limits = limits
        self.handler = handler
        let (listener, boundPort) = try Socket.listen(host: host, port: port)
        self.listener = listener
        self.port = boundPort
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "LoopbackHTTP accept :\(boundPort)"
        thread.start()
    }

    deinit {
        stop()
    }

    /// `http://127.0.0.1:PORT` (or `http://[::1]:PORT`).
    public var baseURL: URL {
        let authority = host == .ipv6 ? "[::1]" : host.rawValue
        return URL(string: "http://\(authority):\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// How many connections the server has accepted since it started (503 answers included).
    public var acceptedConnections: Int { lock.withLock { accepted } }

    /// Closes every connection open now, without an answer, when its next request arrives, as a
    /// busy server closes a kept-alive connection just as its client reuses it. For tests of
    /// clients; connections accepted later are served as usual.
    public func closeKeptAliveConnections() {
        lock.withLock { keptAliveCutoff = accepted }
    }

    /// Stops accepting, closes every open connection and frees the port. Safe to call twice.
    /// Returns once the port is free.
    public func stop() {
        // Shutting down under the lock: a connection thread closes its descriptor under the same
        // lock, so no descriptor number here can have been reused by someone else.
        let first = lock.withLock { () -> Bool in
            guard !stopped else { return false }
            stopped = true
            if listenerOpen { shutdown(listener, Int32(SHUT_RDWR)) }
            for connection in connections.keys { shutdown(connection, Int32(SHUT_RDWR)) }
            return true
        }
        // The accept thread closes the listener itself: closed here, its number could be reused
        // by a new socket before that thread's next accept() call, which would then take the new
        // socket's connections. Its accept() fails at once after the shutdown.
        if first { acceptFinished.wait() }
    }

    private func acceptLoop() {
        defer {
            lock.withLock {
                close(listener)
                listenerOpen = false
            }
            acceptFinished.signal()
        }
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            enum Admission { case serve(Int), busy, stopped }
            let admission = lock.withLock { () -> Admission in
                if stopped { return .stopped }
                accepted += 1
                if connections.count >= limits.maximumConnections {
                    // The longest-idle connection makes room; its thread sees the shutdown and ends.
                    guard let idle = connections.compactMap({ entry in entry.value.idleSince.map { (entry.key, $0) } })
                        .min(by: { $0.1 < $1.1 })?.0 else { return .busy }
                    shutdown(idle, Int32(SHUT_RDWR))
                    connections[idle] = .busy
                }
                connections[connection] = .idle(since: DispatchTime.now().uptimeNanoseconds)
                return .serve(accepted)
            }
            let number: Int
            switch admission {
            case .stopped:
                close(connection)
                return
            case .busy:
                Socket.setTimeouts(connection, seconds: 1)
                send(connection, .text("503\n", status: 503), keepAlive: false)
                close(connection)
                continue
            case .serve(let accepted):
                number = accepted
            }
            Socket.setTimeouts(connection, seconds: limits.idleTimeout)
            let thread = Thread { [self] in
                serve(connection, number: number)
                lock.withLock {
                    connections[connection] = nil
                    close(connection)
                }
            }
            thread.name = "LoopbackHTTP connection"
            thread.start()
        }
    }

    private func serve(_ connection: Int32, number: Int) {
        var buffer = Data()
        var served = 0
        while true {
            guard let deadline = awaitRequest(connection, buffer: &buffer),
                  let (head, rest) = readHead(connection, buffer: &buffer, deadline: deadline) else { return }
            if served > 0, lock.withLock({ number <= keptAliveCutoff }) { return }
            served += 1
            let request: HTTPServerRequest
            let parsed: RequestParser.Head
            do {
                parsed = try RequestParser.parseHead(head, maximumBody: limits.maximumBodyBytes)
                buffer = rest
                guard let body = readBody(connection, length: parsed.contentLength, buffer: &buffer, deadline: deadline) else { return }
                request = HTTPServerRequest(method: parsed.method, target: parsed.target, headers: parsed.headers, body: body)
            } catch let failure as RequestParser.Failure {
                let status = [.headersTooLarge: 431, .bodyTooLarge: 413, .unsupportedTransferCoding: 501][failure] ?? 400
                send(connection, .text("\(status)\n", status: status), keepAlive: false)
                return
            } catch {
                return
            }
            switch handler(request) {
            case .dropConnection:
                return
            case .respondThenClose(let response, let afterSending):
                send(connection, response, keepAlive: false)
                afterSending()
                return
            case .respond(let response):
                guard send(connection, response, keepAlive: parsed.keepAlive), parsed.keepAlive else { return }
            }
        }
    }

    /// Waits, idle, for the first bytes of the next request (unless some are buffered already);
    /// returns the deadline for the rest of it, or nil when the peer left, stayed silent past
    /// the idle timeout, or the connection was closed to make room for another.
    private func awaitRequest(_ connection: Int32, buffer: inout Data) -> UInt64? {
        if buffer.isEmpty {
            lock.withLock { connections[connection] = .idle(since: DispatchTime.now().uptimeNanoseconds) }
            Socket.setTimeouts(connection, seconds: limits.idleTimeout)
            let chunk = Socket.receive(connection)
            let stillIdle = lock.withLock { () -> Bool in
                // The accept thread marks a connection it closed to make room as busy.
                defer { connections[connection] = .busy }
                return connections[connection]?.idleSince != nil
            }
            guard let chunk, stillIdle else { return nil }
            buffer.append(chunk)
        } else {
            lock.withLock { connections[connection] = .busy }
        }
        return DispatchTime.now().uptimeNanoseconds + UInt64(max(0, limits.requestTimeout) * 1e9)
    }

    /// Reads more of a request before `deadline`, never waiting longer than the idle timeout.
    private func receive(_ connection: Int32, deadline: UInt64) -> Data? {
        let now = DispatchTime.now().uptimeNanoseconds
        guard now < deadline else { return nil }
        Socket.setTimeouts(connection, seconds: min(limits.idleTimeout, Double(deadline - now) / 1e9))
        return Socket.receive(connection)
    }

    /// Reads until the blank line ending a head; nil when the peer left, went idle, ran out of
    /// time or sent an over-long head (which is answered with 431 here).
    private func readHead(_ connection: Int32, buffer: inout Data, deadline: UInt64) -> (Data, Data)? {
        let separator = Data("\r\n\r\n".utf8)
        while true {
            if let range = buffer.range(of: separator) {
                guard range.lowerBound - buffer.startIndex <= limits.maximumHeaderBytes else { break }
                return (Data(buffer[buffer.startIndex..<range.lowerBound]), Data(buffer[range.upperBound...]))
            }
            guard buffer.count <= limits.maximumHeaderBytes else { break }
            guard let chunk = receive(connection, deadline: deadline) else { return nil }
            buffer.append(chunk)
        }
        send(connection, .text("431\n", status: 431), keepAlive: false)
        return nil
    }

    private func readBody(_ connection: Int32, length: Int, buffer: inout Data, deadline: UInt64) -> Data? {
        while buffer.count < length {
            guard let chunk = receive(connection, deadline: deadline) else { return nil }
            buffer.append(chunk)
        }
        let body = Data(buffer.prefix(length))
        buffer = Data(buffer.dropFirst(length))
        return body
    }

    @discardableResult
    private func send(_ connection: Int32, _ response: HTTPServerResponse, keepAlive: Bool) -> Bool {
        var head = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        for (name, value) in response.headers
        where name.caseInsensitiveCompare("Content-Length") != .orderedSame && name.caseInsensitiveCompare("Connection") != .orderedSame {
            head += "\(name): \(value)\r\n"
        }
        head += "Content-Length: \(response.body.count)\r\nConnection: \(keepAlive ? "keep-alive" : "close")\r\n\r\n"
        return Socket.sendAll(connection, Data(head.utf8) + response.body)
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 302: "Found"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 413: "Content Too Large"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }
}

/// What a connection is doing, for choosing one to close when the server is full.
private enum ConnectionState {
    /// Waiting for its next request since this time (nanoseconds of uptime).
    case idle(since: UInt64)
    /// A request is arriving or being answered.
    case busy

    var idleSince: UInt64? {
        if case .idle(let since) = self { since } else { nil }
    }
}
