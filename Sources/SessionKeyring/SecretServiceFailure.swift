#if canImport(CLibSecret)
import CLibSecret
import SessionCore

/// What a failed Secret Service call becomes: `storageFailed`, saying which of the failures a user
/// can act on it was. GLib's own message follows (it names D-Bus objects, never a secret).
package enum SecretServiceFailure {
    /// The keyring stayed locked while doing `what`.
    package static func locked(_ what: String) -> SessionError {
        SessionError(.storageFailed, process: .configuration,
                     message: "cannot \(what) the session: the keyring is locked, and its unlock prompt was dismissed or could not be shown; "
                        + "unlock it (Seahorse, or your desktop's prompt) and try again")
    }

    /// A GLib error of `domain` (``clibsecret_domain``) and `code` while doing `what`.
    package static func error(_ what: String, domain: Int32, code: Int32, message: String) -> SessionError {
        let why: String
        switch (UInt32(domain), code) {
        case (CLIBSECRET_SECRET.rawValue, Int32(SECRET_ERROR_IS_LOCKED.rawValue)):
            return locked(what)
        case (CLIBSECRET_DBUS.rawValue, Int32(G_DBUS_ERROR_SERVICE_UNKNOWN.rawValue)),
             (CLIBSECRET_DBUS.rawValue, Int32(G_DBUS_ERROR_NAME_HAS_NO_OWNER.rawValue)):
            why = "no Secret Service answers on the session bus (org.freedesktop.secrets); start your desktop's keyring, or use the file store"
        case (CLIBSECRET_DBUS.rawValue, Int32(G_DBUS_ERROR_NO_REPLY.rawValue)), (CLIBSECRET_DBUS.rawValue, Int32(G_DBUS_ERROR_TIMEOUT.rawValue)),
             (CLIBSECRET_DBUS.rawValue, Int32(G_DBUS_ERROR_TIMED_OUT.rawValue)), (CLIBSECRET_IO.rawValue, Int32(G_IO_ERROR_TIMED_OUT.rawValue)):
            why = "the Secret Service did not answer in time (D-Bus timeout)"
        case (CLIBSECRET_IO.rawValue, Int32(G_IO_ERROR_CANCELLED.rawValue)):
            why = "the keyring's prompt was dismissed"
        case (CLIBSECRET_IO.rawValue, _), (CLIBSECRET_DBUS.rawValue, Int32(G_DBUS_ERROR_FILE_NOT_FOUND.rawValue)),
             (CLIBSECRET_DBUS.rawValue, Int32(G_DBUS_ERROR_NO_SERVER.rawValue)), (CLIBSECRET_DBUS.rawValue, Int32(G_DBUS_ERROR_DISCONNECTED.rawValue)):
            why = "there is no D-Bus session bus to reach a keyring on (no DBUS_SESSION_BUS_ADDRESS, or it is gone); use the file store"
        default:
            why = "the Secret Service failed"
        }
        return SessionError(.storageFailed, process: .configuration, message: "cannot \(what) the session: \(why) (\(message))")
    }
}
#endif
