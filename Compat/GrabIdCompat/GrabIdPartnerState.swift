import Foundation
import LegacySessionReaders
import SessionCore
import SessionFacade

/// The mutable state of a ``GrabIdPartner``: its settings, agent and URL handler, and one
/// ``Entry`` per login session, each behind a lock of its own.
final class GrabIdPartnerState: Sendable {
    typealias Completion = CallbackQueueBound<(GrabIdPartnerError?) -> Void>

    /// One login session's SessionService, and the legacy calls waiting on its login.
    final class Entry: Sendable {
        struct State: Sendable {
            weak var session: LoginSession?
            /// Why the service could not be initialized, reported instead of `notInitialized`.
            var initializationError: SessionError?
            /// An `exchangeToken` waiting for the login it resumed to end.
            var pendingExchange: Completion?
            /// A login page was shown and `loginCompleted` has not closed it yet.
            var loginPageOpen = false
            /// Runs once the URL handler has been given the login page: a login without an
            /// agent completes then, as GrabID's did after presenting its Safari view.
            var pagePresented: (@Sendable () -> Void)?
        }

        let service: SessionService
        private let state: Locked<State>

        init(service: SessionService, session: LoginSession) {
            self.service = service
            state = Locked(State(session: session))
        }

        func withLock<T>(_ body: (inout State) -> T) -> T { state.withLock(body) }

        /// True while the entry still belongs to `session` (entries are keyed by object identity,
        /// which a new session may reuse once the old one is gone).
        func belongs(to session: LoginSession) -> Bool { withLock { $0.session === session } }
    }

    /// The `GrabIdPartnerSDK` settings, a property list.
    ///
    /// `@unchecked Sendable`: a property list holds strings, numbers, dates, data, arrays and
    /// dictionaries, which are values or immutable; it is copied in and out, never mutated in place.
    struct Settings: @unchecked Sendable {
        let plist: [String: Any]
    }

    struct Values: Sendable {
        var entries: [ObjectIdentifier: Entry] = [:]
        var agent: AuthorizationAgent?
        var urlHandler: (@Sendable (URL) -> Void)?
        var settings: Settings?
        var carriesOverLegacySession = true
        /// Where GrabID's keychain items are read: the keychain (Apple platforms), none elsewhere.
        var legacyKeychain: (any KeychainItems)? = GrabIdLegacySession.platformKeychain
    }

    private let values = Locked(Values())

    func withLock<T>(_ body: (inout Values) -> T) -> T {
        values.withLock(body)
    }

    /// `error`, or the initialization failure behind a `notInitialized`.
    func cause(_ error: SessionError, in entry: Entry) -> SessionError {
        guard error.code == .notInitialized else { return error }
        return entry.withLock { $0.initializationError } ?? error
    }
}
