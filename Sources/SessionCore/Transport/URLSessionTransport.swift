import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default ``HTTPTransport`` on Apple platforms: an ephemeral `URLSession` with
/// no cookies and no cache, a per-request timeout, a cap on the response body, and redirects
/// followed only when the request allows it. Bodiless requests reuse kept-alive connections; a
/// request with a body always opens a connection of its own, so it can never be resent without
/// its body.
///
/// On Linux it works (through FoundationNetworking), but ``CurlTransport`` is the default there:
/// FoundationNetworking creates a cookie-store directory in `$XDG_DATA_HOME` for every process.
public final class URLSessionTransport: HTTPTransport {
    /// Seconds a request may take before it fails with ``HTTPTransportError/Kind/timedOut``.
    public let timeout: TimeInterval
    /// The largest response body accepted, in bytes; a larger one fails with
    /// ``HTTPTransportError/Kind/responseTooLarge``.
    public let maximumResponseSize: Int
    private let configuration: URLSessionConfiguration
    private let session: URLSession
    private let tasks: TaskTable

    /// Creates a transport. Defaults: 30 s timeout, 1 MiB response cap.
    public init(timeout: TimeInterval = 30, maximumResponseSize: Int = 1 << 20) {
        self.timeout = timeout
        self.maximumResponseSize = maximumResponseSize
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        tasks = TaskTable(maximumResponseSize: maximumResponseSize)
        self.configuration = configuration
        session = URLSession(configuration: configuration, delegate: tasks, delegateQueue: nil)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Sends `request`; see ``HTTPTransport/send(_:)``.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        // A server may close a kept-alive connection just as the next request arrives on it. The
        // request is then resent on a new connection, by FoundationNetworking without its body,
        // and it hangs until the timeout: a refresh lost that way would end the session. So a
        // request with a body goes over a session of its own, whose only connection is new, and
        // asks the server not to keep it. Bodiless requests (GETs), which replay harmlessly,
        // share the transport's kept-alive connections.
        let ownSession = request.body == nil ? nil : URLSession(configuration: configuration, delegate: tasks, delegateQueue: nil)
        if ownSession != nil { urlRequest.setValue("close", forHTTPHeaderField: "Connection") }
        defer { ownSession?.finishTasksAndInvalidate() }
        let task = (ownSession ?? session).dataTask(with: urlRequest)
        let link = CancellationLink<URLSessionTask>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // Registered before the task can end: a cancelled task reports its end at once,
                // and an end reported before registration would leave the continuation waiting.
                tasks.register(task, redirects: request.redirects, body: request.body, continuation: continuation)
                if link.register(task) {
                    task.resume()
                } else {
                    tasks.finish(task, throwing: HTTPTransportError(.cancelled, detail: "the request was cancelled"))
                }
            }
        } onCancel: {
            link.cancel()?.cancel()
        }
    }
}

/// The session delegate: collects each task's body under a cap and resumes its continuation once.
private final class TaskTable: NSObject, URLSessionDataDelegate, Sendable {
    private struct State: Sendable {
        var continuation: CheckedContinuation<HTTPResponse, Error>
        var redirects: HTTPRequest.Redirects
        /// The request's body: a request with one follows no redirect.
        var requestBody: Data?
        var body = Data()
        var tooLarge = false
        /// A 401 asked for credentials, which were declined: the answer is that 401.
        var challenged = false
    }

    private let states = Locked<[ObjectIdentifier: State]>([:])
    private let maximumResponseSize: Int

    init(maximumResponseSize: Int) {
        self.maximumResponseSize = maximumResponseSize
    }

    func register(_ task: URLSessionTask, redirects: HTTPRequest.Redirects, body: Data?, continuation: CheckedContinuation<HTTPResponse, Error>) {
        states.withLock { $0[ObjectIdentifier(task)] = State(continuation: continuation, redirects: redirects, requestBody: body) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        if response.expectedContentLength > Int64(maximumResponseSize) {
            states.withLock { $0[ObjectIdentifier(dataTask)]?.tooLarge = true }
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overflow = states.withLock { states -> Bool in
            guard var state = states[ObjectIdentifier(dataTask)] else { return false }
            state.body.append(data)
            if state.body.count > maximumResponseSize {
                state.tooLarge = true
                state.body = Data()
            }
            states[ObjectIdentifier(dataTask)] = state
            return state.tooLarge
        }
        if overflow { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        // Each hop is held to the request's rule; a refused one ends with the 3xx as the answer.
        let rule = states.withLock { $0[ObjectIdentifier(task)].map { ($0.redirects, $0.requestBody) } }
        guard let (redirects, body) = rule, let from = task.currentRequest?.url ?? response.url, let to = request.url,
              redirects.allows(from: from, to: to, body: body) else { return completionHandler(nil) }
        var next = request
        if !URLRules.sameOrigin(from, to) {
            next.setValue(nil, forHTTPHeaderField: "Authorization")
            next.setValue(nil, forHTTPHeaderField: "DPoP")
        }
        completionHandler(next)
    }

    /// Ends `task`'s call with `error` before the task ever ran.
    func finish(_ task: URLSessionTask, throwing error: HTTPTransportError) {
        states.withLock { $0.removeValue(forKey: ObjectIdentifier(task)) }?.continuation.resume(throwing: error)
    }

    /// A 401 that asks for credentials (`WWW-Authenticate: Basic`, as RFC 6749 §5.2 answers a
    /// client that failed to authenticate) is the answer itself: the transport has no credentials
    /// to offer, and without this the task waits for them for ever on Linux. The TLS checks
    /// (server trust, client certificates), which reach this method too where the session has no
    /// handler of its own, keep the system's default handling.
    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                    completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        let httpMethods = [NSURLAuthenticationMethodDefault, NSURLAuthenticationMethodHTTPBasic, NSURLAuthenticationMethodHTTPDigest,
                           NSURLAuthenticationMethodNTLM, NSURLAuthenticationMethodNegotiate]
        guard httpMethods.contains(challenge.protectionSpace.authenticationMethod) else {
            return completionHandler(.performDefaultHandling, nil)
        }
        states.withLock { $0[ObjectIdentifier(task)]?.challenged = true }
        completionHandler(.rejectProtectionSpace, nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard let state = states.withLock({ $0.removeValue(forKey: ObjectIdentifier(task)) }) else { return }
        if state.tooLarge {
            state.continuation.resume(throwing: HTTPTransportError(.responseTooLarge, detail: "the response body exceeds \(maximumResponseSize) bytes"))
        } else if state.challenged, let response = task.response as? HTTPURLResponse {
            state.continuation.resume(returning: HTTPResponse(response, body: state.body))
        } else if let error {
            state.continuation.resume(throwing: HTTPTransportError(failure: error))
        } else if let response = task.response as? HTTPURLResponse {
            state.continuation.resume(returning: HTTPResponse(response, body: state.body))
        } else {
            state.continuation.resume(throwing: HTTPTransportError(.connectionLost, detail: "no HTTP response"))
        }
    }
}
