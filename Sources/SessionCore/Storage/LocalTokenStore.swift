/// A ``TokenStore`` on this device that can say at once, without reading the session, whether
/// it holds one: for legacy calls that must answer synchronously (Google Sign-In's
/// `hasPreviousSignIn()`).
public protocol LocalTokenStore: TokenStore {
    /// Whether a session is stored. One that turns out unreadable still counts; `load()` says so.
    var hasStoredSession: Bool { get }
}

extension FileTokenStore: LocalTokenStore {}
extension KeychainTokenStore: LocalTokenStore {}
