import Foundation
import SessionCore

/// A legacy completion handler, which is not `Sendable`, carried into a `@Sendable` closure that
/// runs on the partner's callback queue, where GrabID called it too.
///
/// `@unchecked Sendable`: the value is only used on the callback queue.
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A legacy completion handler that must be called at most once, from whichever of two paths
/// reaches it first (GrabID's `login` ends when its page is shown, or when it fails before).
///
/// `@unchecked Sendable`: `body` is `Locked` (taken out once), and the handler it holds, not
/// `Sendable` itself, is called on the callback queue.
final class OnceCompletion: @unchecked Sendable {
    private let body: Locked<((GrabIdPartnerError?) -> Void)?>

    init(_ body: @escaping (GrabIdPartnerError?) -> Void) {
        self.body = Locked(body)
    }

    /// Calls the handler with `error` unless it was called before.
    func call(_ error: GrabIdPartnerError?) {
        let pending = body.withLock { body -> ((GrabIdPartnerError?) -> Void)? in
            defer { body = nil }
            return body
        }
        pending?(error)
    }
}
