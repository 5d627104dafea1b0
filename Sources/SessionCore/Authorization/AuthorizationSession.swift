import Foundation

/// One sign-in in progress, and the one handle on it, as AppAuth's external user-agent session
/// is: ``run(on:scopes:agent:)`` performs it, ``cancel()`` and ``resume(with:)`` reach it from
/// anywhere, and its outcome is decided here, once.
///
/// - ``cancel()`` ends it with `cancelled` unless it already succeeded.
/// - `end(with:)` ends it with the given error whatever happens (the facade's `sessionEnded`,
///   whose tokens the client discards anyway).
/// - Either may come before ``run(on:scopes:agent:)``: the sign-in then never starts.
///
/// An agent that lets the app show the page waits in ``waitForRedirect(to:present:)`` for the
/// redirect the app hands to ``resume(with:)``.
public final class AuthorizationSession: Sendable {
    private struct Wait: Sendable {
        let redirectURI: URL
        let continuation: CheckedContinuation<URL, Error>
    }

    private struct State: Sendable {
        /// Cancels the task the sign-in runs on, once it is known.
        var cancelTask: (@Sendable () -> Void)?
        var started = false
        /// Why the sign-in was stopped, and whether that replaces even a success.
        var stop: (error: SessionError, overridesSuccess: Bool)?
        var finished = false
        var wait: Wait?
    }

    private let state = Locked(State())

    /// A sign-in not yet started.
    public init() {}

    /// Signs in on `client` for `scopes` through `agent` (``SessionClient/signIn(scopes:agent:)``),
    /// unless the session was cancelled or ended before, and returns the outcome: the client's,
    /// or `cancelled` / the ending error as the rules above say.
    public func run(on client: SessionClient, scopes: [String]? = nil, agent: AuthorizationAgent) async -> Result<SessionTokens, SessionError> {
        await run(on: client) { try await $0.signIn(scopes: scopes, agent: agent) }
    }

    /// Runs the sign-in `signIn` performs on `client` (a device sign-in, say) under the same
    /// rules: not started when cancelled or ended before, cancelled by ``cancel()`` unless it
    /// already succeeded. It runs on a task of its own, which ``cancel()`` cancels.
    public func run(on client: SessionClient,
                    _ signIn: @escaping @Sendable (SessionClient) async throws -> SessionTokens) async -> Result<SessionTokens, SessionError> {
        guard begin() else { return finish(.failure(.cancelled())) }
        let task = Task { try await signIn(client) }
        attach { task.cancel() }
        let result: Result<SessionTokens, SessionError>
        do {
            result = .success(try await task.value)
        } catch {
            result = .failure((error as? SessionError) ?? .cancelled())
        }
        return finish(result)
    }

    /// As ``run(on:_:)``, on the current task, which must run nothing else: the caller gives the
    /// task to ``attach(_:)``, before or after this starts, so that ``cancel()`` reaches it.
    package func runOnAttachedTask(on client: SessionClient,
                                   _ signIn: @Sendable (SessionClient) async throws -> SessionTokens) async -> Result<SessionTokens, SessionError> {
        guard begin() else { return finish(.failure(.cancelled())) }
        do {
            return finish(.success(try await signIn(client)))
        } catch {
            return finish(.failure((error as? SessionError) ?? .cancelled()))
        }
    }

    /// As ``runOnAttachedTask(on:_:)``, signing in through `agent` (``SessionClient/signIn(scopes:agent:)``).
    package func runOnAttachedTask(on client: SessionClient, scopes: [String]?, agent: AuthorizationAgent) async -> Result<SessionTokens, SessionError> {
        await runOnAttachedTask(on: client) { try await $0.signIn(scopes: scopes, agent: agent) }
    }

    /// Makes `task` the one ``cancel()`` and `end(with:)` cancel: the task the sign-in runs on.
    /// A sign-in stopped before is cancelled at once.
    package func attach(_ task: Task<Void, Never>) {
        attach { task.cancel() }
    }

    private func attach(_ cancel: @escaping @Sendable () -> Void) {
        let stopped = state.withLock { state -> Bool in
            state.cancelTask = cancel
            return state.stop != nil
        }
        if stopped { cancel() }
    }

    /// Marks the sign-in started; false when it was stopped before or had started already.
    private func begin() -> Bool {
        state.withLock { state in
            guard state.stop == nil, !state.started else { return false }
            state.started = true
            return true
        }
    }

    /// The outcome, as the stop rules make it of `result`.
    private func finish(_ result: Result<SessionTokens, SessionError>) -> Result<SessionTokens, SessionError> {
        state.withLock { state in
            state.finished = true
            guard let stop = state.stop else { return result }
            if case .success = result, !stop.overridesSuccess { return result }
            return .failure(stop.error)
        }
    }

    /// Cancels the sign-in: it ends with `cancelled` unless it already succeeded.
    /// - Returns: false when it had already finished or was ended.
    @discardableResult
    public func cancel() -> Bool {
        stop(with: .cancelled(), overridesSuccess: false)
    }

    /// Ends the sign-in with `error`, even one that succeeds meanwhile.
    /// - Returns: false when it had already finished.
    @discardableResult
    package func end(with error: SessionError) -> Bool {
        stop(with: error, overridesSuccess: true)
    }

    private func stop(with error: SessionError, overridesSuccess: Bool) -> Bool {
        let (cancelTask, wait, running) = state.withLock { state -> ((@Sendable () -> Void)?, Wait?, Bool) in
            // Finished, or ended: a cancel changes nothing any more.
            guard !state.finished, !(state.stop?.overridesSuccess == true && !overridesSuccess) else { return (nil, nil, false) }
            if state.stop == nil || overridesSuccess { state.stop = (error, overridesSuccess) }
            defer { state.wait = nil }
            return (state.cancelTask, state.wait, true)
        }
        // Outside the lock: cancellation handlers run synchronously and lock too.
        wait?.continuation.resume(throwing: error)
        cancelTask?()
        return running
    }

    /// Hands `url` to the sign-in waiting for the app's redirect, when it addresses that
    /// redirect URI (``AuthorizationRequest/isResponse(_:to:)``).
    /// - Returns: true when it did; false, changing nothing, otherwise (a second resume is false).
    @discardableResult
    public func resume(with url: URL) -> Bool {
        let wait = state.withLock { state -> Wait? in
            guard let wait = state.wait, AuthorizationRequest.isResponse(url, to: wait.redirectURI) else { return nil }
            state.wait = nil
            return wait
        }
        wait?.continuation.resume(returning: url)
        return wait != nil
    }

    /// Waits for the redirect to `redirectURI` that the app hands to ``resume(with:)``. `present`
    /// runs once the wait is registered (so the app may resume from inside it) and shows the page;
    /// an error it throws ends the wait.
    /// - Throws: `cancelled` when the task is cancelled, the session is cancelled or ended, or a
    ///   newer wait starts; whatever `present` throws.
    public func waitForRedirect(to redirectURI: URL, present: () throws -> Void) async throws -> URL {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let (replaced, refusal) = state.withLock { state -> (Wait?, SessionError?) in
                    if let stop = state.stop { return (nil, stop.error) }
                    if Task.isCancelled { return (nil, .cancelled()) }
                    defer { state.wait = Wait(redirectURI: redirectURI, continuation: continuation) }
                    return (state.wait, nil)
                }
                replaced?.continuation.resume(throwing: SessionError.cancelled())
                if let refusal { return continuation.resume(throwing: refusal) }
                do {
                    try present()
                } catch {
                    takeWait()?.continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            takeWait()?.continuation.resume(throwing: SessionError.cancelled())
        }
    }

    private func takeWait() -> Wait? {
        state.withLock { state in
            defer { state.wait = nil }
            return state.wait
        }
    }
}
