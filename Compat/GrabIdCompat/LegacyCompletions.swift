import Foundation
import SessionCore
import SessionFacade

/// A legacy completion handler that must be called at most once, from whichever of two paths
/// reaches it first (GrabID's `login` ends when its page is shown, or when it fails before).
///
/// The handler is taken out of its `Locked` once and called on the callback queue.
final class OnceCompletion: Sendable {
    private let body: Locked<GrabIdPartnerState.Completion?>

    init(_ body: @escaping (GrabIdPartnerError?) -> Void) {
        self.body = Locked(GrabIdPartnerState.Completion(body))
    }

    /// Calls the handler with `error` unless it was called before.
    func call(_ error: GrabIdPartnerError?) {
        let pending = body.withLock { body -> GrabIdPartnerState.Completion? in
            defer { body = nil }
            return body
        }
        pending?.value(error)
    }
}
