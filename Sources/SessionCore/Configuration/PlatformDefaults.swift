import Foundation

/// What SessionService uses on the platform it runs on when the app does not choose: the
/// storage and (in the SessionWebAuthentication module) the browser the SDKs it replaces used there.
public enum PlatformDefaults {
    /// The default store for `configuration`'s session: ``KeychainTokenStore`` on Apple
    /// platforms, ``FileTokenStore`` in the XDG data directory elsewhere.
    public static func tokenStore(for configuration: SessionConfiguration) throws -> any LocalTokenStore {
        #if canImport(Security)
        KeychainTokenStore(configuration: configuration)
        #else
        try FileTokenStore(configuration: configuration)
        #endif
    }
}
