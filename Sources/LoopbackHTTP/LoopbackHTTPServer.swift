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
/// connection limit (64) that bounds its threads: a new connection takes the place of the
/// longest-idle one, or else of the one whose request has been arriving longest (a browser sends
/// a request at once; a client that trickles one in is the likelier attacker), and is answered
/// 503 only when every connection is having its request answered. It answers a
/// malformed request with 400 and keeps serving others. The handler runs on the connection's
/// thread and may block it (to inject a delay, for instance). ``stop()`` closes every socket and frees the port; call it
/// when done, since the accept thread keeps the server alive until then.
///
/// Threads: one accepts, and each open connection has one of its own (the sockets block, so
/// none of them is a Swift concurrency pool thread, whose few threads a blocked read would
/// starve); a browser bringing back a redirect opens one to three connections (it may open
/// spare ones ahead of need), so a sign-in's listener runs two to four threads, at most 65.
///
/// `@unchecked Sendable`: `connections`, `stopped`, `listenerOpen`, `stopWaiters`, `accepted`
/// and `keptAliveCutoff` are only accessed while holding `lock` (an `NSCondition`); everything else is immutable after
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
        /// (one waiting for its next request), else of the one whose request has been arriving
        /// longest; when every connection is being answered it gets 503 and is closed.
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
    /// Guards the state below; signalled whenever a connection ends, for an accept waiting for room.
    private let lock = NSCondition()
    /// Open connections: idle (waiting for a request) since a time, or busy with one.
    private var connections: [Int32: ConnectionState] = [:]
    private var stopped = false
    /// Connections accepted so far; each one's number is its position in that count.
    private var accepted = 0
    /// Connections numbered up to this one are closed at their next request (``closeKeptAliveConnections()``).
    private var keptAliveCutoff = 0
    private var listenerOpen = true
    /// Tasks waiting in ``waitUntilStopped()`` for the listening socket to close.
    private var stopWaiters: [CheckedContinuation<Void, Never>] = []

    /// Binds `host:port` (0 for an ephemeral port) and starts accepting connections.
    /// - Throws: `POSIXError` when the socket cannot be bound (port in use, for instance);
    ///   `EINVAL` for limits outside their range: timeouts above 0 and at most a day (0 would be
    ///   none to the socket), at least one header byte and one connection, no negative body.
    public init(host: Host = .ipv4, port: UInt16 = 0, limits: Limits = Limits(), handler: @escaping Handler) throws {
        let day: TimeInterval = 86_400
        guard limits.idleTimeout > 0, limits.idleTimeout <= day, limits.requestTimeout > 0, limits.requestTimeout <= day,
              limits.maximumHeaderBytes >= 1, limits.maximumBodyBytes >= 0, limits.maximumConnections >= 1 else {
            throw POSIXError(.EINVAL)
        }
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

    /// How many connections are open, each served by a thread of its own: never more than
    /// ``Limits/maximumConnections``. A connection's thread has ended once it no longer counts.
    public var openConnections: Int { lock.withLock { connections.count } }

    /// Waits until at most `count` connections are open (the others' threads have ended), for
    /// `timeout` seconds at most; false when more were still open then.
    public func waitUntilOpenConnections(atMost count: Int, timeout: TimeInterval) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return lock.withLock {
            while connections.count > count {
                guard lock.wait(until: deadline) else { return connections.count <= count }
            }
            return true
        }
    }

    /// How many open connections are waiting for their next request.
    public var idleConnections: Int { lock.withLock { connections.values.filter(\.isIdle).count } }

    /// Closes every connection open now, without an answer, when its next request arrives, as a
    /// busy server closes a kept-alive connection just as its client reuses it. For tests of
    /// clients; connections accepted later are served as usual.
    public func closeKeptAliveConnections() {
        lock.withLock { keptAliveCutoff = accepted }
    }

    /// Stops accepting and closes every open connection; the port is free a moment later, once
    /// the accept thread has closed it (``waitUntilStopped()``). Never blocks, so it may be called
    /// from a task or a `defer` in one. Safe to call twice.
    public func stop() {
        // Shutting down under the lock: a connection thread closes its descriptor under the same
        // lock, so no descriptor number here can have been reused by someone else. The accept
        // thread closes the listener itself: closed here, its number could be reused by a new
        // socket before that thread's next accept() call, which would then take the new socket's
        // connections. Its accept() fails at once after the shutdown.
        lock.withLock {
            guard !stopped else { return }
            stopped = true
            if listenerOpen { shutdown(listener, Int32(SHUT_RDWR)) }
            for connection in connections.keys { shutdown(connection, Int32(SHUT_RDWR)) }
            lock.broadcast()
        }
    }

    /// Waits, without blocking a thread, until the port is free after ``stop()``.
    public func waitUntilStopped() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let free = lock.withLock { () -> Bool in
                if listenerOpen { stopWaiters.append(continuation) }
                return !listenerOpen
            }
            if free { continuation.resume() }
        }
    }

    /// Waits, blocking the calling thread (never call it from a task), until the port is free
    /// after ``stop()``, for `timeout` seconds at most; false when it was not free by then.
    public func waitUntilStopped(timeout: TimeInterval) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return lock.withLock {
            while listenerOpen {
                guard lock.wait(until: deadline) else { return !listenerOpen }
            }
            return true
        }
    }

    private func acceptLoop() {
        defer {
            let waiters = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
                close(listener)
                listenerOpen = false
                lock.broadcast()
                defer { stopWaiters = [] }
                return stopWaiters
            }
            for waiter in waiters { waiter.resume() }
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
                guard makeRoom() else { return .busy }
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
                    lock.broadcast()
                }
            }
            thread.name = "LoopbackHTTP connection"
            thread.start()
        }
    }

    /// Closes connections until one more fits within the limit, longest-idle first, then the
    /// longest-arriving request, and waits (a second at most) for their threads to end, so the
    /// server never runs more connection threads than the limit. When every connection is being
    /// answered, waits for one to go idle. False when none did, or none ended, in time. Called
    /// holding `lock`.
    private func makeRoom() -> Bool {
        let deadline = Date(timeIntervalSinceNow: 1)
        while connections.count >= limits.maximumConnections {
            if stopped { return false }
            let closing = connections.values.filter(\.isClosing).count
            if connections.count - closing >= limits.maximumConnections {
                let candidates = connections.compactMap { entry in entry.value.evictionRank.map { (entry.key, $0) } }
                if let victim = candidates.min(by: { $0.1 < $1.1 })?.0 {
                    // Its thread sees the shutdown, ends, and removes it.
                    shutdown(victim, Int32(SHUT_RDWR))
                    connections[victim] = .closing
                }
                // Otherwise every connection is being answered: one that finishes within the
                // deadline goes idle (and wakes this wait) before the newcomer gets 503.
            }
            guard lock.wait(until: deadline) else { return false }
        }
        return true
    }

    private func serve(_ connection: Int32, number: Int) {
        var buffer = Data()
        var served = 0
        var idleSince = DispatchTime.now().uptimeNanoseconds
        while true {
            guard let deadline = awaitRequest(connection, buffer: &buffer, idleSince: idleSince),
                  let (head, rest) = readHead(connection, buffer: &buffer, deadline: deadline) else { return }
            if served > 0, lock.withLock({ number <= keptAliveCutoff }) { return }
            served += 1
            let request: HTTPServerRequest
            let parsed: RequestParser.Head
            do {
                parsed = try RequestParser.parseHead(head, maximumBody: limits.maximumBodyBytes)
                buffer = rest
                guard let body = readBody(connection, length: parsed.contentLength, buffer: &buffer, deadline: deadline),
                      markAnswering(connection) else { return }
                request = HTTPServerRequest(method: parsed.method, target: parsed.target, headers: parsed.headers, body: body)
            } catch let failure as RequestParser.Failure {
                let status = [.headersTooLarge: 431, .bodyTooLarge: 413, .unsupportedTransferCoding: 501][failure] ?? 400
                send(connection, .text("\(status)\n", status: status), keepAlive: false)
                return
            } catch {
                return
            }
            let answer = handler(request)
            // Idle from the moment its answer is ready, not from whenever this thread next runs,
            // so connections answered in turn are idle in that order.
            idleSince = DispatchTime.now().uptimeNanoseconds
            switch answer {
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

    /// Waits, idle since `idleSince`, for the first bytes of the next request (unless some are buffered already);
    /// returns the deadline for the rest of it, or nil when the peer left, stayed silent past
    /// the idle timeout, or the connection was closed to make room for another.
    private func awaitRequest(_ connection: Int32, buffer: inout Data, idleSince: UInt64) -> UInt64? {
        if buffer.isEmpty {
            lock.withLock {
                connections[connection] = .idle(since: idleSince)
                // The accept thread may be waiting for room that this connection now offers.
                lock.broadcast()
            }
            Socket.setTimeouts(connection, seconds: limits.idleTimeout)
            let chunk = Socket.receive(connection)
            let stillOpen = lock.withLock { () -> Bool in
                // The accept thread marks a connection it closed to make room as closing.
                guard connections[connection]?.isClosing == false else { return false }
                connections[connection] = .arriving(since: DispatchTime.now().uptimeNanoseconds)
                return true
            }
            guard let chunk, stillOpen else { return nil }
            buffer.append(chunk)
        } else {
            let stillOpen = lock.withLock { () -> Bool in
                guard connections[connection]?.isClosing == false else { return false }
                connections[connection] = .arriving(since: DispatchTime.now().uptimeNanoseconds)
                return true
            }
            guard stillOpen else { return nil }
        }
        return DispatchTime.now().uptimeNanoseconds + UInt64(max(0, limits.requestTimeout) * 1e9)
    }

    /// Marks the connection as having its request answered (no longer one to close for room);
    /// false when it was closed to make room meanwhile.
    private func markAnswering(_ connection: Int32) -> Bool {
        lock.withLock {
            guard connections[connection]?.isClosing == false else { return false }
            connections[connection] = .answering
            return true
        }
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
        where !FieldName.equal(name, "Content-Length") && !FieldName.equal(name, "Connection") {
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
        case 421: "Misdirected Request"
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
    /// Its request has been arriving since this time.
    case arriving(since: UInt64)
    /// Its request is being answered.
    case answering
    /// Shut down to make room; its thread is ending.
    case closing

    var isClosing: Bool {
        if case .closing = self { true } else { false }
    }

    var isIdle: Bool {
        if case .idle = self { true } else { false }
    }

    /// The order in which connections are closed for room (lowest first): every idle one before
    /// any arriving one, the oldest of each first; nil for one that is not closed for room.
    var evictionRank: (Int, UInt64)? {
        switch self {
        case .idle(let since): (0, since)
        case .arriving(let since): (1, since)
        case .answering, .closing: nil
        }
    }
}
