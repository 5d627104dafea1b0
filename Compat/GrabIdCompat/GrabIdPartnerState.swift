import Foundation
import SessionCore
import SessionFacade

/// The mutable state of a ``GrabIdPartner``, behind one lock.
///
/// `@unchecked Sendable`: the values are `Locked`, and every ``Entry``'s mutable property is read
/// and written only inside ``withLock(_:)``, under the same lock.
final class GrabIdPartnerState: @unchecked Sendable {
    typealias Completion = Unchecked<(GrabIdPartnerError?) -> Void>

    /// One login session's SessionService, and the legacy calls waiting on its login.
    final class Entry: @unchecked Sendable {
        let service: SessionService
        weak var session: LoginSession?
        /// Why the service could not be initialized, reported instead of `notInitialized`.
        var initializationError: SessionError?
        /// An `exchangeToken` waiting for the login it resumed to end.
        var pendingExchange: Completion?
        /// A login page was shown and `loginCompleted` has not closed it yet.
        var loginPageOpen = false

        init(service: SessionService, session: LoginSession) {
            self.service = service
            self.session = session
        }
    }

    struct Values {
        var entries: [ObjectIdentifier: Entry] = [:]
        var agent: AuthorizationAgent?
        var urlHandler: (@Sendable (URL) -> Void)?
        var settings: [String: Any]?
    }

    private let values = Locked(Values())

    func withLock<T>(_ body: (inout Values) -> T) -> T {
        values.withLock(body)
    }

    /// `error`, or the initialization failure behind a `notInitialized`.
    func cause(_ error: SessionError, in entry: Entry) -> SessionError {
        guard error.code == .notInitialized else { return error }
        return withLock { _ in entry.initializationError } ?? error
    }
}
