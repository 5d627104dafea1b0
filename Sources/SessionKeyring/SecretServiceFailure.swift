#if canImport(CLibSecret)
import CLibSecret
import SessionCore

/// What a failed Secret Service call becomes: `storageFailed`, saying which of the failures a user
/// can act on it was. GLib's own message follows (it names D-Bus objects, never a secret).
package enum SecretServiceFailure {
    /// The keyring stayed locked while doing `what` ("read the session").
    package static func locked(_ what: String) -> SessionError {
        SessionError(.storageFailed, process: .configuration,
                     message: "cannot \(what): the keyring is locked, and its unlock prompt was dismissed or could not be shown; "
                        + "unlock it (Seahorse, or your desktop's prompt) and try again")
    }

    /// An error of `domain` (``clibsecret_domain``) and `code` (GLib's, in that domain) while doing `what`.
    package static func error(_ what: String, domain: Int32, code: Int32, message: String) -> SessionError {
        func glib(_ value: some BinaryInteger) -> Int32 { Int32(value) }
        let why: String
        switch (UInt32(domain), code) {
        case (CLIBSECRET_UNAVAILABLE.rawValue, _):
            why = "libsecret is not installed (Debian and Ubuntu: libsecret-1-0); use the file store"
        case (CLIBSECRET_SECRET.rawValue, glib(CLIBSECRET_ERROR_IS_LOCKED)):
            return locked(what)
        case (CLIBSECRET_DBUS.rawValue, glib(CLIBSECRET_DBUS_SERVICE_UNKNOWN)), (CLIBSECRET_DBUS.rawValue, glib(CLIBSECRET_DBUS_NAME_HAS_NO_OWNER)):
            why = "no Secret Service answers on the session bus (org.freedesktop.secrets); start your desktop's keyring, or use the file store"
        case (CLIBSECRET_DBUS.rawValue, glib(CLIBSECRET_DBUS_NO_REPLY)), (CLIBSECRET_DBUS.rawValue, glib(CLIBSECRET_DBUS_TIMEOUT)),
             (CLIBSECRET_DBUS.rawValue, glib(CLIBSECRET_DBUS_TIMED_OUT)), (CLIBSECRET_IO.rawValue, glib(CLIBSECRET_IO_TIMED_OUT)):
            why = "the Secret Service did not answer in time (D-Bus timeout)"
        case (CLIBSECRET_IO.rawValue, glib(CLIBSECRET_IO_CANCELLED)):
            why = "the keyring's prompt was dismissed"
        case (CLIBSECRET_IO.rawValue, _), (CLIBSECRET_DBUS.rawValue, glib(CLIBSECRET_DBUS_FILE_NOT_FOUND)),
             (CLIBSECRET_DBUS.rawValue, glib(CLIBSECRET_DBUS_NO_SERVER)), (CLIBSECRET_DBUS.rawValue, glib(CLIBSECRET_DBUS_DISCONNECTED)):
            why = "there is no D-Bus session bus to reach a keyring on (no DBUS_SESSION_BUS_ADDRESS, or it is gone); use the file store"
        default:
            why = "the Secret Service failed"
        }
        return SessionError(.storageFailed, process: .configuration, message: "cannot \(what): \(why) (\(message))")
    }
}
#endif
