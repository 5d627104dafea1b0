import Foundation
import LegacySessionReaders
import SessionCore
import SessionFacade

/// The mutable state of a ``NetIdService``, behind one lock.
final class NetIdServiceState: Sendable {
    struct Values {
        /// The configuration of the successful `initialize`.
        var config: NetIdConfig?
        /// The configurations of the `initialize` calls whose outcome is still to come, in call order.
        var pendingConfigs: [NetIdConfig] = []
        var agent = AgentChoice.platformDefault
        var layerStyle = NetIdLayerStyle.Solid
        var buttonStyle = NetIdButtonStyle.WhiteSolid
        var legacySession: any LegacySessionSource = NetIdLegacySession()
    }

    private let values = Locked(Values())

    func withLock<T>(_ body: (inout Values) -> T) -> T {
        values.withLock(body)
    }

    /// Settles the oldest `initialize` call: its configuration becomes the service's when it is
    /// the first to succeed, and is forgotten otherwise. Outcomes arrive in call order (C4).
    func settle(initializationError error: SessionError?) {
        withLock { values in
            guard !values.pendingConfigs.isEmpty else { return }
            let settled = values.pendingConfigs.removeFirst()
            if error == nil, values.config == nil { values.config = settled }
        }
    }
}
