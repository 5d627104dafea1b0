import Foundation

/// What SessionService uses on the platform it runs on when the app does not choose: the
/// HTTP transport, the storage and (in the SessionWebAuthentication module) the browser the SDKs it
/// replaces used there.
public enum PlatformDefaults {
    /// The default HTTP transport: ``URLSessionTransport`` on Apple platforms, ``CurlTransport``
    /// elsewhere (which, unlike FoundationNetworking, leaves no directory in `$XDG_DATA_HOME`).
    public static func httpTransport() -> any HTTPTransport {
        #if canImport(CLibCurl)
        CurlTransport()
        #else
        URLSessionTransport()
        #endif
    }

    /// The default store for `configuration`'s session: ``KeychainTokenStore`` on Apple
    /// platforms, ``FileTokenStore`` in the XDG data directory elsewhere.
    ///
    /// On a Linux desktop, consider the keyring instead: `SecretServiceTokenStore` in the
    /// `SessionKeyring` product keeps the session in GNOME Keyring or KWallet. Choose it when the
    /// process runs in a desktop login whose session bus offers `org.freedesktop.secrets`; keep
    /// the file store for servers, containers and SSH sessions, where there is no keyring to
    /// unlock (it would fail with `storageFailed` saying so).
    public static func tokenStore(for configuration: SessionConfiguration) throws -> any LocalTokenStore {
        #if canImport(Security)
        KeychainTokenStore(configuration: configuration)
        #else
        try FileTokenStore(configuration: configuration)
        #endif
    }

    /// The default store of several accounts' sessions for `configuration` (``AccountSessions``):
    /// ``KeychainAccountStore`` on Apple platforms, ``FileAccountStore`` in the XDG data directory
    /// elsewhere; on a Linux desktop, `SecretServiceAccountStore` in `SessionKeyring` keeps them in
    /// the keyring.
    public static func accountStore(for configuration: SessionConfiguration) throws -> any AccountStore {
        #if canImport(Security)
        KeychainAccountStore(configuration: configuration)
        #else
        try FileAccountStore(configuration: configuration)
        #endif
    }
}
