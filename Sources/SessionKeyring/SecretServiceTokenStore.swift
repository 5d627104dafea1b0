#if canImport(CLibSecret)
import CLibSecret
import Dispatch
import Foundation
import SessionCore

/// A `TokenStore` in the desktop keyring (GNOME Keyring, KWallet, KeePassXC...)
/// through the freedesktop Secret Service API, as git's libsecret credential helper and GitHub's
/// CLI keep their tokens on Linux.
///
/// One item per issuer and client ID, under the schema `org.sessionservice.Session` (attributes
/// `issuer` and `client_id`), in the default collection, labelled
/// "SessionService: <issuer> (<client ID>)" so that a person recognises it in Seahorse. It holds
/// the same versioned envelope as the file and keychain stores, at most 1 MiB; what it finds of
/// another client, or no session at all, is `storageCorrupt` and left in place.
///
/// libsecret itself is loaded when the store is first used (`libsecret-1.so.0`), not linked: the
/// package builds without it, and a machine without it gets an error saying so.
///
/// Every failure is `storageFailed`, and says which: libsecret not installed, no Secret Service on the session bus, a
/// keyring that stayed locked (its unlock prompt was dismissed or could not be shown), a D-Bus
/// timeout. The stored session is left as it was. Calls block on D-Bus, so they run on a thread
/// of their own, never on the caller's.
///
/// Several processes may share the session: refreshes take a lock (``withRefreshLock(_:)``) on a
/// file in `$XDG_RUNTIME_DIR/SessionService` (the data directory when there is none).
public struct SecretServiceTokenStore: SharedTokenStore {
    /// The item's `issuer` attribute.
    public let issuer: String
    /// The item's `client_id` attribute.
    public let clientID: String
    /// The item's `account` attribute when it is one account's among several
    /// (``SecretServiceAccountStore``, schema `org.sessionservice.Account`); nil for the one session
    /// of the issuer and client.
    public let account: String?
    /// The item's label.
    public var label: String {
        "SessionService: \(issuer) (\(clientID))" + (account.map { ", account \($0.prefix(8))" } ?? "")
    }
    private let codec: StoredSessionCodec

    /// The store for `configuration`'s issuer and client.
    public init(configuration: SessionConfiguration) {
        self.init(configuration: configuration, account: nil)
    }

    /// The store of `configuration`'s issuer and client, in the item of `account` when not nil.
    init(configuration: SessionConfiguration, account: String?) {
        issuer = configuration.issuer.absoluteString
        clientID = configuration.clientID
        self.account = account
        let label = "SessionService: \(issuer) (\(configuration.clientID))" + (account.map { ", account \($0.prefix(8))" } ?? "")
        codec = StoredSessionCodec(configuration: configuration, location: "the keyring item \"\(label)\"")
    }

    /// Reads the session; nil when there is no item.
    public func load() async throws -> SessionTokens? {
        let (issuer, clientID, account) = (self.issuer, self.clientID, self.account)
        let text: String? = try await Self.call("read the session") { failure in
            var secret: UnsafeMutablePointer<CChar>?
            let outcome = clibsecret_lookup(issuer, clientID, account, &secret, &failure)
            defer { free(secret) }
            return (outcome, secret.map { String(cString: $0) })
        }
        guard let text else { return nil }
        return try decode(text)
    }

    /// The session in an item's secret text, checked as ``load()`` checks it.
    func decode(_ text: String) throws -> SessionTokens {
        try codec.decode(Data(text.utf8))
    }

    /// Creates or replaces the item.
    public func save(_ tokens: SessionTokens) async throws {
        let secret = String(decoding: try codec.encode(tokens), as: UTF8.self)
        let (issuer, clientID, account, label) = (self.issuer, self.clientID, self.account, self.label)
        try await Self.call("save the session") { failure in (clibsecret_store(issuer, clientID, account, label, secret, &failure), ()) }
    }

    /// Deletes the item; succeeds when there is none.
    public func clear() async throws {
        let (issuer, clientID, account) = (self.issuer, self.clientID, self.account)
        try await Self.call("delete the session") { failure in (clibsecret_clear(issuer, clientID, account, &failure), ()) }
    }

    /// Runs `body` holding an exclusive `flock` on a lock file named after the item, in
    /// `$XDG_RUNTIME_DIR/SessionService` (created 0700; the data directory when there is no
    /// runtime directory); see `SharedTokenStore`.
    public func withRefreshLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        let directory = try Self.lockDirectory()
        let name = "keyring-" + (try PlatformCrypto.hexDigest(of: "\(issuer)\n\(clientID)" + (account.map { "\n\($0)" } ?? ""), bytes: 16)) + ".lock"
        let lock = try await RefreshLockFile.acquire(directory.appendingPathComponent(name).path)
        defer { lock.release() }
        return try await body()
    }

    private static func lockDirectory() throws -> URL {
        let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        let directory = try runtime.map { URL(fileURLWithPath: $0).appendingPathComponent("SessionService") } ?? FileTokenStore.defaultDirectory()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw SessionError(.storageFailed, process: .configuration, message: "cannot create the lock directory \(directory.path)")
        }
        return directory
    }

    /// Runs a blocking libsecret call on a store thread (``SessionCore/BlockingStoreWork``) and turns its outcome into a value or
    /// a `storageFailed` that says what went wrong while doing `what`.
    static func call<T: Sendable>(_ what: String,
                                          _ body: @escaping @Sendable (inout clibsecret_failure) -> (Int32, T)) async throws -> T {
        let result: Result<T, SessionError> = await BlockingStoreWork.perform {
            var failure = clibsecret_failure(domain: 0, code: 0, message: nil)
            let (outcome, value) = body(&failure)
            defer { free(failure.message) }
            switch UInt32(outcome) {
            case CLIBSECRET_DONE.rawValue:
                return .success(value)
            case CLIBSECRET_LOCKED.rawValue:
                return .failure(SecretServiceFailure.locked(what))
            default:
                let message = failure.message.map { String(cString: $0) } ?? ""
                return .failure(SecretServiceFailure.error(what, domain: failure.domain, code: failure.code, message: message))
            }
        }
        return try result.get()
    }
}
#endif
