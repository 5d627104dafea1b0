import Foundation
import SessionCore

/// The facade's wait for an authorization whose page the app shows itself, the way AppAuth's external
/// user-agent session works: ``wait(for:present:)`` registers the redirect URI, lets the app
/// show the page, and returns the redirect the app later hands to ``resume(_:)``.
///
/// One authorization waits at a time; a new wait ends the previous one as `cancelled`, and so
/// does ``cancel()`` or cancelling the waiting task. The waiting redirect is `Locked`.
final class ExternalRedirect: Sendable {
    private struct Waiting {
        let id: UInt64
        let redirectURI: URL
        let continuation: CheckedContinuation<URL, Error>
    }

    private let waiting = Locked<(next: UInt64, current: Waiting?)>((0, nil))

    /// Creates an idle wait.
    init() {}

    /// Waits for the redirect to `redirectURI`. `present` runs once the wait is registered (so
    /// the app may resume from inside it) and shows the page; an error it throws ends the wait.
    /// - Throws: `cancelled` when the task is cancelled, ``cancel()`` is called or a newer wait
    ///   starts; whatever `present` throws.
    func wait(for redirectURI: URL, present: () throws -> Void) async throws -> URL {
        let id = waiting.withLock { state -> UInt64 in
            state.next += 1
            return state.next
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let replaced = waiting.withLock { state -> Waiting? in
                    defer { state.current = Task.isCancelled ? nil : Waiting(id: id, redirectURI: redirectURI, continuation: continuation) }
                    return state.current
                }
                replaced?.continuation.resume(throwing: Self.cancelled)
                if Task.isCancelled { return continuation.resume(throwing: Self.cancelled) }
                do {
                    try present()
                } catch {
                    if let mine = take(id: id) { mine.continuation.resume(throwing: error) }
                }
            }
        } onCancel: {
            take(id: id)?.continuation.resume(throwing: Self.cancelled)
        }
    }

    /// Hands `url` to the waiting authorization when it addresses that authorization's redirect
    /// URI (``AuthorizationRequest/isResponse(_:to:)``), which then returns it.
    /// - Returns: true when it did; false, changing nothing, when none waits or `url` is not
    ///   its redirect (a second resume of the same URL is false).
    @discardableResult
    func resume(_ url: URL) -> Bool {
        let match = waiting.withLock { state -> Waiting? in
            guard let current = state.current, AuthorizationRequest.isResponse(url, to: current.redirectURI) else { return nil }
            state.current = nil
            return current
        }
        match?.continuation.resume(returning: url)
        return match != nil
    }

    /// Ends the waiting authorization, if any, with `cancelled`.
    /// - Returns: true when one was waiting.
    @discardableResult
    func cancel() -> Bool {
        let current = waiting.withLock { state -> Waiting? in
            defer { state.current = nil }
            return state.current
        }
        current?.continuation.resume(throwing: Self.cancelled)
        return current != nil
    }

    private func take(id: UInt64) -> Waiting? {
        waiting.withLock { state in
            guard state.current?.id == id else { return nil }
            defer { state.current = nil }
            return state.current
        }
    }

    private static var cancelled: SessionError {
        SessionError(.cancelled, process: .authentication, message: "the authorization was cancelled")
    }
}
