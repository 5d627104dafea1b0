/// A ``TokenStore`` on this device that can say at once, without reading the session, whether
/// it holds one: for legacy calls that must answer synchronously (Google Sign-In's
/// `hasPreviousSignIn()`).
public protocol LocalTokenStore: TokenStore {
    /// Whether a session is stored. One that turns out unreadable still counts; `load()` says so.
    var hasStoredSession: Bool { get }

    /// ``TokenStore/load()``, answered at once: for legacy calls that read the store synchronously
    /// (YeboID's `tokens()`). The stores on this device read without suspending anyway.
    func loadNow() throws -> SessionTokens?
}

extension FileTokenStore: LocalTokenStore {}
extension KeychainTokenStore: LocalTokenStore {}
