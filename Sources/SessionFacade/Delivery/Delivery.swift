import Foundation
import SessionCore

/// One thing delivered to the listeners and, for an operation's own outcome, to its completion
/// handler, as one block on the callback queue (rule C3).
struct Delivery: Sendable {
    /// Calls the matching listener method.
    let notify: @Sendable (SessionServiceDelegate) -> Void
    /// The operation's completion handler with its result, if the caller gave one.
    let complete: (@Sendable () -> Void)?

    /// Listeners in registration order, then the completion handler.
    func block(listeners: ListenerRegistry) -> @Sendable () -> Void {
        { [notify, complete] in
            for listener in listeners.snapshot() { notify(listener) }
            complete?()
        }
    }
}

extension Delivery {
    /// A ``SessionEvent``: listeners only, no completion (C15).
    static func event(_ event: SessionEvent) -> Delivery {
        switch event {
        case .tokensRefreshed(let tokens): Delivery(notify: { $0.didRefreshSession(tokens.accessToken) }, complete: nil)
        case .sessionLost(let error): Delivery(notify: { $0.didLoseSession(error) }, complete: nil)
        // The facade's listeners have no such callback; the step-up is its caller's call.
        case .stepUpRequired: Delivery(notify: { _ in }, complete: nil)
        }
    }
}
