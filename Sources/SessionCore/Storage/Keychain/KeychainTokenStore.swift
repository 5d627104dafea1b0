import Foundation

/// The Apple platforms' default ``TokenStore``, as the keychain was for every SDK it replaces:
/// one generic-password item per issuer and client.
///
/// The item's service is ``defaultService`` unless told otherwise and its account is
/// ``account(for:)``. A save adds the item or, when it exists, updates it; a load of a missing
/// item is nil, a clear of one succeeds. What the item holds is checked as the file store
/// checks its file: data of another client, data that is no session, or more than 1 MiB is
/// `storageCorrupt` and left in place. Keychain failures are `storageFailed`, their message
/// names the status; a locked keychain (`errSecInteractionNotAllowed`) says so, since the
/// session is intact and readable later.
///
/// A DPoP-bound session's key is made in the Secure Enclave where there is one: the item then
/// holds only the reference to it, never the key.
///
/// This type's logic is platform-neutral and tested on Linux against a fake keychain with the
/// `SecItem` semantics; `init(configuration:service:accessibility:accessGroup:)`, which uses
/// the real keychain, exists on Apple platforms only.
public struct KeychainTokenStore: SharedTokenStore {
    /// The service of the items made when none is given.
    public static let defaultService = "SessionService"

    /// The item's `kSecAttrService`.
    public let service: String
    /// The item's `kSecAttrAccount`: ``account(for:)`` of the configuration.
    public let account: String
    /// When the item can be read.
    public let accessibility: KeychainAccessibility
    /// The keychain access group shared with other apps of the team, or nil for the app's own.
    public let accessGroup: String?
    /// A directory every process sharing the item can write — an app group's container
    /// (`FileManager.containerURL(forSecurityApplicationGroupIdentifier:)`), for an app and its
    /// extensions — where refreshes take their cross-process lock (``SharedTokenStore``). nil
    /// (the default): no lock, for an item only one process uses.
    public var sharedLockDirectory: URL?
    private let codec: StoredSessionCodec
    private let items: any KeychainItems

    /// A store for `configuration`'s issuer and client in `items`, in the item `account` (default
    /// ``account(for:)``; an ``KeychainAccountStore`` names one per signed-in account).
    package init(configuration: SessionConfiguration, account: String? = nil, service: String = Self.defaultService,
                 accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly, accessGroup: String? = nil,
                 items: any KeychainItems) {
        self.service = service
        self.account = account ?? Self.account(for: configuration)
        self.accessibility = accessibility
        self.accessGroup = accessGroup
        self.codec = StoredSessionCodec(configuration: configuration, location: "keychain item \(service), \(self.account)")
        self.items = items
    }

    /// The account a configuration's session is kept under: `<issuer>#<client ID>`. An issuer
    /// has no fragment (OpenID Connect Discovery §3), so no two configurations share one.
    public static func account(for configuration: SessionConfiguration) -> String {
        "\(configuration.issuer.absoluteString)#\(configuration.clientID)"
    }

    private var item: KeychainItem {
        KeychainItem(service: service, account: account, accessGroup: accessGroup, accessibility: accessibility)
    }

    /// True when ``sharedLockDirectory`` is set: only then do other processes share the session.
    public var isShared: Bool { sharedLockDirectory != nil }

    /// ``StoredSessionChangeDetection/stamp`` when shared: the item's digest tells a new version.
    public var changeDetection: StoredSessionChangeDetection { isShared ? .stamp : .none }

    /// Runs `body` holding the refresh lock in ``sharedLockDirectory`` (a `flock` on a file named
    /// after the item), or at once without one. Type-checked on Apple platforms, never run there;
    /// the lock itself is the file store's, tested on Linux.
    public func withRefreshLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        guard let sharedLockDirectory else { return try await body() }
        let name = "session-" + (try PlatformCrypto.hexDigest(of: "\(service)\n\(account)", bytes: 16)) + ".lock"
        let lock = try await RefreshLockFile.acquire(sharedLockDirectory.appendingPathComponent(name).path)
        defer { lock.release() }
        return try await body()
    }

    /// Whether a session is stored, answered at once for legacy calls that must answer
    /// synchronously. An item that turns out unreadable still counts; ``load()`` says so.
    public var hasStoredSession: Bool {
        items.copyData(item).status != .itemNotFound
    }

    /// The stamp of the stored session: a SHA-256 of the item's data,
    /// read as ``hasStoredSession`` reads it; an item that cannot be read now (a locked device)
    /// has a stamp of its own, so it is decoded again once it can be.
    public func storedSessionStamp() -> StoredSessionStamp? {
        let (status, data) = items.copyData(item)
        if status == .itemNotFound { return nil }
        guard status == .success, let data, let digest = try? PlatformCrypto.sha256(data) else { return StoredSessionStamp(bytes: []) }
        return StoredSessionStamp(bytes: Array(digest))
    }

    /// Reads the session; nil when there is no item. The keychain is called on a store thread
    /// (``BlockingStoreWork``).
    public func load() async throws -> SessionTokens? {
        try await BlockingStoreWork.run { [self] in try loadNow() }
    }

    /// ``load()``, answered at once (``LocalTokenStore/loadNow()``).
    public func loadNow() throws -> SessionTokens? {
        let (status, data) = items.copyData(item)
        if status == .itemNotFound { return nil }
        try check(status, "cannot read the session")
        guard let data else { throw failure(.storageCorrupt, "the keychain item holds no data") }
        return try codec.decode(data)
    }

    /// Adds the item, or updates it when it exists (on a store thread).
    public func save(_ tokens: SessionTokens) async throws {
        let data = try codec.encode(tokens)
        try await BlockingStoreWork.run { [self] in
            var status = items.add(item, data: data)
            if status == .duplicateItem {
                status = items.update(item, data: data)
                // Deleted by someone else between the two calls: add it after all.
                if status == .itemNotFound { status = items.add(item, data: data) }
            }
            try check(status, "cannot save the session")
        }
    }

    /// Deletes the item (on a store thread); succeeds when there is none.
    public func clear() async throws {
        try await BlockingStoreWork.run { [self] in
            let status = items.delete(item)
            if status == .itemNotFound { return }
            try check(status, "cannot delete the session")
        }
    }

    private func check(_ status: KeychainStatus, _ what: String) throws {
        if let error = status.failure(what, location: "keychain item \(service), \(account)") { throw error }
    }

    private func failure(_ code: SessionError.Code, _ why: String) -> SessionError {
        SessionError(code, process: .configuration, message: "\(why) (keychain item \(service), \(account))")
    }
}
