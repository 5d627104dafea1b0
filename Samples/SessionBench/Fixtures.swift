import Dispatch
import Foundation
import SessionCore
import SessionFacade
import SessionTesting

/// A signed-in core client.
func signedInClient(_ provider: LocalProvider, transport: HTTPTransport, dpop: DPoPMode = .off) async throws -> SessionClient {
    let client = SessionClient(configuration: try provider.configuration(dpop: dpop), transport: transport)
    _ = try await client.signIn(agent: HeadlessUserAgent(transport: transport))
    return client
}

/// A core client signed in over loopback, and its tokens.
func signedInLoopbackClient(_ provider: LocalProvider) async throws -> (SessionClient, SessionTokens) {
    let client = try await signedInClient(provider, transport: PlatformDefaults.httpTransport())
    guard let tokens = await client.tokens else { throw BenchFailure("sign-in left no session") }
    return (client, tokens)
}

/// A signed-in facade service delivering on a serial queue of its own.
func signedInService(_ provider: LocalProvider, transport: HTTPTransport) async throws -> SessionService {
    let service = SessionService(store: { _ in InMemoryTokenStore() }, transport: transport, agent: HeadlessUserAgent(transport: transport))
    service.callbackQueue = DispatchQueue(label: "session-bench.callbacks")
    let configuration = try provider.configuration()
    try await completion { service.initialize(configuration, completion: $0) }
    _ = try await completion { service.getAuthorization(completion: $0) }
    return service
}

/// Starts a facade call and waits for its completion handler.
func completion<Value: Sendable>(_ start: (@escaping @Sendable (Result<Value, SessionError>) -> Void) -> Void) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        start { continuation.resume(with: $0) }
    }
}

/// `count` `fetchUserInfo` calls, each started from the previous one's completion handler, the
/// way callback-style code chains them; returns when the last completes.
func chainedUserInfo(_ service: SessionService, count: Int) async throws {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
        fetchUserInfo(service, remaining: count, continuation)
    }
}

private func fetchUserInfo(_ service: SessionService, remaining: Int, _ continuation: CheckedContinuation<Void, Error>) {
    service.fetchUserInfo { result in
        switch result {
        case .failure(let error): continuation.resume(throwing: error)
        case .success where remaining <= 1: continuation.resume()
        case .success: fetchUserInfo(service, remaining: remaining - 1, continuation)
        }
    }
}

/// `count` core `userInfo()` calls chained as callback code chains them, with nothing around the
/// core: each started from a block on `queue`, its result handed back to `queue`, where the next
/// one starts. Two thread handoffs per call, the least a callback-style call can cost.
func chainedUserInfo(_ client: SessionClient, on queue: DispatchQueue, count: Int) async throws {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
        queue.async { userInfo(client, on: queue, remaining: count, continuation) }
    }
}

private func userInfo(_ client: SessionClient, on queue: DispatchQueue, remaining: Int, _ continuation: CheckedContinuation<Void, Error>) {
    Task {
        let result: Result<UserInfo, Error>
        do {
            result = .success(try await client.userInfo())
        } catch {
            result = .failure(error)
        }
        queue.async {
            switch result {
            case .failure(let error): continuation.resume(throwing: error)
            case .success where remaining <= 1: continuation.resume()
            case .success: userInfo(client, on: queue, remaining: remaining - 1, continuation)
            }
        }
    }
}

/// `count` `fetchUserInfo` calls made at once, each with a completion handler, as an app does
/// when several screens ask together; returns when every completion has run. The service runs
/// them one at a time, so this is the time per call when calls keep it busy.
func backToBackUserInfo(_ service: SessionService, count: Int) async throws {
    let succeeded = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
        let tally = Tally(expected: count) { continuation.resume(returning: $0) }
        for _ in 0..<count {
            service.fetchUserInfo { tally.record(success: (try? $0.get()) != nil) }
        }
    }
    guard succeeded == count else { throw BenchFailure("\(count - succeeded) of \(count) fetchUserInfo calls failed") }
}

/// How many refresh grants the provider has answered.
func refreshRequests(_ provider: LocalProvider) -> Int {
    provider.requests(to: .token).filter { $0.parameters["grant_type"] == "refresh_token" }.count
}

/// Counts outcomes and reports the successes once all have arrived.
final class Tally: Sendable {
    private let counts = Locked((arrived: 0, successes: 0))
    private let expected: Int
    private let done: @Sendable (Int) -> Void

    init(expected: Int, done: @escaping @Sendable (Int) -> Void) {
        self.expected = expected
        self.done = done
    }

    func record(success: Bool) {
        let finished = counts.withLock { counts -> Int? in
            counts.arrived += 1
            if success { counts.successes += 1 }
            return counts.arrived == expected ? counts.successes : nil
        }
        if let finished { done(finished) }
    }
}
