import Foundation
import LegacySessionReaders
import SessionCore
import SessionFacade

/// Where Google Sign-In kept its session: GTMAppAuth's keychain item (generic password, service
/// `auth`, account `OAuth`) holding a `GTMAppAuthFetcherAuthorization` archive that wraps AppAuth's
/// `OIDAuthState` (GoogleSignIn-iOS 6.0.0, GIDSignIn.m line 89; GTMAppAuth 1.3,
/// GTMAppAuthFetcherAuthorization+Keychain.m and GTMKeychain.m). ``GIDSignIn`` carries it over when
/// it finds no session of its own, unless ``GIDSignIn/carriesOverLegacySession`` is false.
///
/// Google Sign-In configured AppAuth by endpoints, without an issuer: a session whose token
/// endpoint is Google's is taken as issued by `https://accounts.google.com`.
public struct GIDLegacySession: LegacySessionSource {
    /// GTMAppAuth's keychain item name, which Google Sign-In uses.
    public static let keychainService = "auth"
    /// GTMAppAuth's account name for its items.
    public static let keychainAccount = "OAuth"
    /// The token endpoints Google Sign-In refreshed at (6.x and 5.x; 4.x).
    static let googleTokenEndpoints = ["https://oauth2.googleapis.com/token", "https://www.googleapis.com/oauth2/v4/token"]

    private let keychain: (any KeychainItems)?

    /// The keychain's item on Apple platforms; on others there is none, and nothing to carry over.
    public init() {
        #if canImport(Security)
        keychain = SecItemKeychain()
        #else
        keychain = nil
        #endif
    }

    /// The item in `keychain` (tests use one in memory).
    package init(keychain: any KeychainItems) {
        self.keychain = keychain
    }

    private var item: KeychainItem {
        KeychainItem(service: Self.keychainService, account: Self.keychainAccount, accessGroup: nil,
                     accessibility: .afterFirstUnlockThisDeviceOnly)
    }

    /// Names the storage in log lines.
    public var name: String { "Google Sign-In's keychain item \(Self.keychainService)" }

    /// Whether the item exists, without reading it.
    var exists: Bool {
        keychain?.copyData(item).status == .success
    }

    /// The archived session, or nil when Google Sign-In left none.
    /// - Throws: `storageCorrupt` when the item is not such an archive; `storageFailed` when the
    ///   keychain cannot be read now.
    public func legacySession() throws -> LegacySession? {
        guard let keychain else { return nil }
        let (status, data) = keychain.copyData(item)
        if status == .itemNotFound { return nil }
        guard status == .success, let data else {
            throw SessionError(.storageFailed, process: .configuration, message: "the keychain answered \(status.rawValue)")
        }
        var session = try LegacySession(fetcherAuthorizationArchive: data)
        if session.issuer == nil, let endpoint = session.tokenEndpoint?.absoluteString, Exact.contains(Self.googleTokenEndpoints, endpoint) {
            session.issuer = URL(constant: "https://accounts.google.com")
        }
        return session
    }

    /// Deletes the item, as Google Sign-In's `signOut` did.
    public func removeLegacySession() throws {
        guard let keychain else { return }
        let status = keychain.delete(item)
        guard status == .success || status == .itemNotFound else {
            throw SessionError(.storageFailed, process: .configuration, message: "the keychain answered \(status.rawValue)")
        }
    }
}
