import Foundation
import LoopbackHTTP
import SessionCore

/// The loopback listener of one sign-in or sign-out: takes the first request for the redirect
/// path, hands its URL to the waiting task, and answers the browser with the page ``finish(page:)``
/// gives once the client has judged the redirect.
final class RedirectReceiver: Sendable {
    /// How long the browser's request waits for the client's judgement before it is shown that the
    /// redirect was received: the client judges at once, so only a client that never says comes here.
    static let judgementWait: TimeInterval = 30

    /// The configured redirect URI with the port listened on.
    let redirectURI: URL
    private let server: LoopbackHTTPServer
    private let mailbox: Mailbox

    /// Listens on `configured`'s loopback address for the redirect of a page shown for `purpose`.
    init(redirectURI configured: URL, purpose: AgentPurpose) throws {
        guard var components = URLComponents(url: configured, resolvingAgainstBaseURL: false),
              components.scheme?.lowercased() == "http",
              let bind = components.host.flatMap({ LoopbackHTTPServer.Host(rawValue: $0.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))) }) else {
            throw SessionError(.invalidConfiguration, process: .authentication,
                               message: "a loopback browser agent needs an http redirect URI on 127.0.0.1 or [::1]")
        }
        guard components.port.map({ (1...65535).contains($0) }) ?? true else {
            throw SessionError(.invalidConfiguration, process: .authentication, message: "the redirect URI's port is out of range")
        }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        let mailbox = Mailbox(received: RedirectPage.html(for: .accepted, purpose: purpose))
        do {
            server = try LoopbackHTTPServer(host: bind, port: UInt16(components.port ?? 0)) { request in
                // A page on another origin that resolves its own name to 127.0.0.1 (DNS rebinding)
                // sends that name as Host: refused, and it consumes nothing.
                guard let host = request.header("Host"), mailbox.namesListener(host) else {
                    return .respond(.text("This listener answers only requests addressed to it.", status: 421))
                }
                guard request.method == "GET", Exact.equal(request.path, path) else {
                    return .respond(.text("Not found", status: 404))
                }
                guard mailbox.belongs(request.target) else {
                    // Anyone on this machine can reach the port: a response without this sign-in's
                    // `state` is shown its page and ends nothing.
                    let page = RedirectPage.html(for: SessionError(.stateMismatch, process: .authentication, message: "not this sign-in"))
                    return .respond(.text(page, status: 400, contentType: "text/html; charset=utf-8"))
                }
                // The client judges the redirect, and the browser is shown its judgement; the listener
                // stops once the browser that brought it has its page (a reload's answer stops nothing).
                guard mailbox.deliver(target: request.target) else {
                    return .respondThenClose(.text(mailbox.laterPage, contentType: "text/html; charset=utf-8")) {}
                }
                return .respondThenClose(.text(mailbox.judgement(waitingAtMost: Self.judgementWait), contentType: "text/html; charset=utf-8")) {
                    mailbox.browserAnswered()
                }
            }
        } catch {
            let host = components.host ?? "127.0.0.1"
            let advice = components.port == nil ? "" : "; leave the port out of the redirect URI (http://\(host)\(path)) to listen on any free one, "
                + "as RFC 8252 §7.3 asks providers to allow"
            throw SessionError(.networkError, process: .authentication,
                               message: "cannot listen on \(host) port \(components.port ?? 0): \(error.localizedDescription)\(advice)")
        }
        self.mailbox = mailbox
        components.port = Int(server.port)
        guard let listening = components.url else {
            server.stop()
            throw SessionError(.invalidConfiguration, process: .authentication, message: "the redirect URI cannot carry a port")
        }
        redirectURI = listening
        mailbox.listen(base: server.baseURL.absoluteString, port: server.port) { [weak server] in server?.stop() }
    }

    deinit {
        // A session dropped without being finished does not keep its port.
        server.stop()
    }

    /// Sets the `state` a redirect must carry to end the sign-in (nil: any redirect does). Until
    /// then (no URL has been opened yet) no request belongs to it.
    func expect(state: String?) {
        mailbox.expect(state: state)
    }

    /// Shows the browser that brought the redirect `page` (the client's judgement), then stops
    /// listening; stops at once when no browser waits. Returns once the port is free.
    func finish(page: String) async {
        if mailbox.judge(page) { server.stop() }
        await server.waitUntilStopped()
    }

    /// Waits for the redirect, at most `timeout` seconds.
    func wait(timeout: TimeInterval) async throws -> URL {
        let mailbox = mailbox
        return try await withThrowingTaskGroup(of: URL.self) { group in
            group.addTask { try await mailbox.redirect() }
            group.addTask {
                // Clamped: a non-finite or huge timeout would not convert to nanoseconds.
                let seconds = timeout.isFinite ? min(max(0, timeout), 1_000_000) : 1_000_000
                try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                throw SessionError(.timeout, process: .authentication,
                                   message: "no browser came back to the redirect URI within \(wholeSeconds(seconds)) s")
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else {
                throw SessionError.cancelled()
            }
            return first
        }
    }

    /// What the listener's threads and the waiting task share, behind one lock.
    private final class Mailbox: Sendable {
        private struct State: Sendable {
            var received: Result<URL, SessionError>?
            var waiter: CheckedContinuation<URL, Error>?
            /// Whether a URL was opened, so that a redirect may belong to it.
            var expecting = false
            /// The `state` of the request the browser was sent with; nil accepts any redirect.
            var state: String?
            /// The page the client's judgement made, once it is known.
            var judgement: String?
            /// Whether the browser that brought the redirect waits for its page.
            var browserWaiting = false
            /// Stops the listener, once the judgement is given and shown.
            var stopListener: (@Sendable () -> Void)?
            /// `http://host:port`, known once the listener is bound.
            var base: String?
            /// The `Host` header values that name the listener (DNS rebinding defence).
            var hosts: [String] = []
        }

        private let shared = Locked(State())
        /// The page for a redirect received before the client has judged it.
        private let received: String

        init(received: String) {
            self.received = received
        }
        /// Signalled once the judgement is given, for the browser's request waiting for it.
        private let judged = DispatchSemaphore(value: 0)

        func listen(base: String, port: UInt16, stop: @escaping @Sendable () -> Void) {
            shared.withLock { state in
                state.base = base
                state.hosts = ["127.0.0.1:\(port)", "[::1]:\(port)", "localhost:\(port)"]
                state.stopListener = stop
            }
        }

        func expect(state expected: String?) {
            shared.withLock { state in
                state.state = expected
                state.expecting = true
            }
        }

        /// Records the client's judgement. True when no browser waits for it, so the listener
        /// may stop now; otherwise the browser's connection stops it once the page is sent.
        func judge(_ page: String) -> Bool {
            let waiting = shared.withLock { state -> Bool in
                state.judgement = state.judgement ?? page
                return state.browserWaiting
            }
            judged.signal()
            return !waiting
        }

        /// The judgement, waiting for it `seconds` at most (on the connection's own thread); the
        /// received page when none came.
        func judgement(waitingAtMost seconds: TimeInterval) -> String {
            if shared.withLock({ $0.judgement }) == nil { _ = judged.wait(timeout: .now() + seconds) }
            return laterPage
        }

        /// The page for a request that belongs to the sign-in but is not the first: the
        /// judgement, or, before there is one, that the redirect was received.
        var laterPage: String {
            shared.withLock { $0.judgement } ?? received
        }

        /// The browser has its page: the listener stops if the judgement is in.
        func browserAnswered() {
            let stop = shared.withLock { state -> (@Sendable () -> Void)? in
                state.browserWaiting = false
                return state.judgement == nil ? nil : state.stopListener
            }
            stop?()
        }

        /// True when the `Host` header names this listener: its address or `localhost`, with its port.
        func namesListener(_ host: String) -> Bool {
            shared.withLock { $0.hosts.contains { ASCII.equalIgnoringCase($0, host) } }
        }

        /// True when `target` carries exactly one `state`, equal to the request's.
        func belongs(_ target: String) -> Bool {
            let known = shared.withLock { (expecting: $0.expecting, state: $0.state) }
            guard known.expecting else { return false }
            guard let expected = known.state else { return true }
            let states = URLComponents(string: target)?.queryItems?.filter { Exact.equal($0.name, "state") } ?? []
            return states.count == 1 && Exact.equal(states[0].value, expected)
        }

        func redirect() async throws -> URL {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    // Decided once, under the lock: a continuation left as the waiter is resumed by
                    // whoever takes it (a redirect or the cancellation handler), never here too.
                    let ready = shared.withLock { state -> Result<URL, SessionError>? in
                        if let received = state.received { return received }
                        if Task.isCancelled { return .failure(SessionError.cancelled()) }
                        state.waiter = continuation
                        return nil
                    }
                    if let ready { continuation.resume(with: ready) }
                }
            } onCancel: {
                let waiting = shared.withLock { state -> CheckedContinuation<URL, Error>? in
                    defer { state.waiter = nil }
                    return state.waiter
                }
                waiting?.resume(throwing: SessionError.cancelled())
            }
        }

        /// Keeps the first redirect; later ones (a reload, a second tab) are answered but ignored.
        /// True for the first: its browser waits for the judgement.
        func deliver(target: String) -> Bool {
            let (first, waiting, result) = shared.withLock { state -> (Bool, CheckedContinuation<URL, Error>?, Result<URL, SessionError>) in
                let result: Result<URL, SessionError> = state.base.flatMap { URL(string: $0 + target) }.map { .success($0) }
                    ?? .failure(SessionError(.invalidResponse, process: .authentication, message: "the browser's redirect is not a valid URL"))
                guard state.received == nil else { return (false, nil, result) }
                state.received = result
                state.browserWaiting = state.judgement == nil
                defer { state.waiter = nil }
                return (true, state.waiter, result)
            }
            waiting?.resume(with: result)
            return first
        }
    }
}
