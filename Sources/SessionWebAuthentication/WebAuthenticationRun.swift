import Foundation
import SessionCore

/// An in-app browser session as ``WebAuthenticationRun`` drives it; on Apple platforms an
/// `ASWebAuthenticationSession`.
package protocol WebAuthenticationSessionControl: AnyObject {
    /// Shows the page; false when the session cannot start.
    @MainActor func start() -> Bool
    /// Dismisses the page.
    @MainActor func cancel()
}

/// The result handler a browser session calls once: the callback URL, or an error.
package typealias WebAuthenticationCompletion = @Sendable (URL?, (any Error)?) -> Void

/// One authorization in an in-app browser session, from start to callback, on the main actor.
///
/// The platform-neutral part of `WebAuthenticationAgent`: it ends exactly once, whatever the
/// session reports and however often; it cancels the session when the calling task is
/// cancelled, before or after it starts; and it maps the session's outcome to
/// ``SessionError``s. It is tested on Linux with a scripted session.
package enum WebAuthenticationRun {
    /// `ASWebAuthenticationSessionError.Code` values (Apple's documentation).
    package enum SessionErrorCode: Int {
        case canceledLogin = 1
        case presentationContextNotProvided = 2
        case presentationContextInvalid = 3
    }

    /// Runs a session `makeSession` builds around the completion it is given, and returns the
    /// callback URL.
    /// - Parameters:
    ///   - callback: what the session waits for; a returned URL must match it.
    ///   - sessionErrorDomain: the domain of the session's own errors
    ///     (`ASWebAuthenticationSessionErrorDomain`).
    ///   - makeSession: builds the session; it may throw a ``SessionError`` before anything is shown.
    /// - Throws: `cancelled` when the user closes the page or the task is cancelled;
    ///   `redirectURIMismatch` for a URL the callback does not match; `authorizationAgentFailed`
    ///   when the session cannot start or fails otherwise.
    @MainActor
    package static func run(callback: WebAuthenticationCallback, sessionErrorDomain: String,
                            makeSession: (_ completion: @escaping WebAuthenticationCompletion) throws -> any WebAuthenticationSessionControl) async throws -> URL {
        let state = State()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<URL, any Error>) in
                state.continuation = continuation
                guard !Task.isCancelled else {
                    state.finish(.failure(SessionError.cancelled(detail: "before the page was shown")))
                    return
                }
                do {
                    let session = try makeSession { url, error in
                        let result = outcome(url: url, error: error, callback: callback, sessionErrorDomain: sessionErrorDomain)
                        Task { @MainActor in state.finish(result) }
                    }
                    state.session = session
                    if !session.start() {
                        state.finish(.failure(agentFailed("the web authentication session did not start (another one is showing, or the app is not in the foreground)")))
                    }
                } catch {
                    state.finish(.failure(error))
                }
            }
        } onCancel: {
            Task { @MainActor in state.cancel() }
        }
    }

    /// What a session's report means.
    package static func outcome(url: URL?, error: (any Error)?, callback: WebAuthenticationCallback,
                                sessionErrorDomain: String) -> Result<URL, any Error> {
        if let error {
            let reported = error as NSError
            guard reported.domain == sessionErrorDomain else {
                return .failure(agentFailed("the web authentication session failed (\(reported.domain) \(reported.code))"))
            }
            switch SessionErrorCode(rawValue: reported.code) {
            case .canceledLogin:
                return .failure(SessionError.cancelled(detail: "the user closed the sign-in page"))
            case .presentationContextNotProvided, .presentationContextInvalid:
                return .failure(agentFailed("the web authentication session has no window to show the page from"))
            case nil:
                return .failure(agentFailed("the web authentication session failed (code \(reported.code))"))
            }
        }
        guard let url else { return .failure(agentFailed("the web authentication session ended without a URL or an error")) }
        guard callback.matches(url) else {
            return .failure(SessionError(.redirectURIMismatch, process: .authentication,
                                         message: "the web authentication session returned a URL the redirect URI does not match"))
        }
        return .success(url)
    }

    private static func agentFailed(_ why: String) -> SessionError {
        SessionError(.authorizationAgentFailed, process: .authentication, message: why)
    }

    /// The run's progress; touched on the main actor only.
    @MainActor
    private final class State {
        var continuation: CheckedContinuation<URL, any Error>?
        var session: (any WebAuthenticationSessionControl)?

        /// Ends the run with `result` the first time; later reports are ignored.
        func finish(_ result: Result<URL, any Error>) {
            guard let continuation else { return }
            self.continuation = nil
            session = nil
            continuation.resume(with: result)
        }

        /// Dismisses a showing session and ends the run as cancelled.
        func cancel() {
            let showing = session
            finish(.failure(SessionError.cancelled()))
            showing?.cancel()
        }
    }
}
