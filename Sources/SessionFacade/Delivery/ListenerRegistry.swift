import Foundation

/// The registered listeners, held weakly, in registration order (rule C9).
///
/// `@unchecked Sendable`: `entries` is read and written only while holding `lock`; listeners
/// are only called on the callback queue, by the delivery line.
final class ListenerRegistry: @unchecked Sendable {
    private struct Entry {
        weak var listener: SessionServiceDelegate?
        let id: ObjectIdentifier
    }

    private let lock = NSLock()
    private var entries: [Entry] = []

    /// Adds `listener` at the end; an object already registered stays where it is.
    func register(_ listener: SessionServiceDelegate) {
        let id = ObjectIdentifier(listener)
        lock.withLock {
            entries.removeAll { $0.listener == nil }
            guard !entries.contains(where: { $0.id == id }) else { return }
            entries.append(Entry(listener: listener, id: id))
        }
    }

    /// Removes `listener`; outcomes not yet being delivered no longer reach it.
    func unregister(_ listener: SessionServiceDelegate) {
        let id = ObjectIdentifier(listener)
        lock.withLock { entries.removeAll { $0.id == id || $0.listener == nil } }
    }

    /// The listeners alive now, in registration order.
    func snapshot() -> [SessionServiceDelegate] {
        lock.withLock { entries.compactMap(\.listener) }
    }
}
