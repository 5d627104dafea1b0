import Foundation
import SessionCore

/// The registered listeners, held weakly, in registration order (rule C9). Listeners are only
/// called on the callback queue, by the delivery line.
final class ListenerRegistry: Sendable {
    /// `@unchecked Sendable`: a listener is any object the app registers, not `Sendable`; the
    /// entry is touched only inside the registry's `Locked`, and the listener it yields is called
    /// only on the callback queue (C1), one delivery at a time.
    private struct Entry: @unchecked Sendable {
        weak var listener: SessionServiceDelegate?
        let id: ObjectIdentifier
    }

    private let entries = Locked<[Entry]>([])

    /// Adds `listener` at the end; an object already registered stays where it is.
    func register(_ listener: SessionServiceDelegate) {
        let id = ObjectIdentifier(listener)
        entries.withLock { entries in
            entries.removeAll { $0.listener == nil }
            guard !entries.contains(where: { $0.id == id }) else { return }
            entries.append(Entry(listener: listener, id: id))
        }
    }

    /// Removes `listener`; outcomes not yet being delivered no longer reach it.
    func unregister(_ listener: SessionServiceDelegate) {
        let id = ObjectIdentifier(listener)
        entries.withLock { $0.removeAll { $0.id == id || $0.listener == nil } }
    }

    /// The listeners alive now, in registration order.
    func snapshot() -> [SessionServiceDelegate] {
        entries.withLock { $0.compactMap(\.listener) }
    }
}
