import Foundation

/// Where a session's tokens live between launches, and what the store can do beyond keeping them.
///
/// Three requirements every store implements — ``load()``, ``save(_:)``, ``clear()`` — and four
/// it may, each with a default that suits a store one process uses alone:
///
/// | requirement | default | a store overrides it when |
/// |---|---|---|
/// | ``isShared`` | false | other processes or nodes use the session at the same time |
/// | ``withRefreshLock(_:)`` | runs the body | it has a lock they all see (a file lock, a lease row) |
/// | ``changeDetection`` and ``storedSessionStamp()`` | `.none`, nil | it can tell that another process changed the session |
/// | ``providerDocumentCache`` | nil | it keeps the provider's documents beside the session |
///
/// ``SessionClient`` reads these and never casts a store to find out what it is. Every method
/// throws on failure — a store never pretends to have saved. The client saves a rotated refresh
/// token before any caller sees the new tokens, and treats a failed save as the end of the
/// session. Blocking work (the file system, a keychain, a database client library) belongs on
/// ``BlockingStoreWork``, never on the caller's thread. The "Writing a token store" article shows
/// a complete store.
public protocol TokenStore: Sendable {
    /// The stored tokens, or nil when none are stored.
    /// - Throws: ``SessionError`` `storageFailed` when the store cannot be read, `storageCorrupt`
    ///   when what it holds is not a session of this client.
    func load() async throws -> SessionTokens?
    /// Replaces the stored tokens.
    func save(_ tokens: SessionTokens) async throws
    /// Removes the stored tokens; succeeds when there were none.
    func clear() async throws

    /// Whether other processes (or nodes of a fleet) may use the session now. The client then
    /// takes ``withRefreshLock(_:)`` around each refresh and sign-out and looks for changes made
    /// elsewhere as ``changeDetection`` says.
    var isShared: Bool { get }

    /// Runs `body` while holding the store's lock across every process that shares it, waiting
    /// for it first: the client's refresh (read the stored session, refresh if it still needs it,
    /// save) and sign-out run under it, so a rotating refresh token is spent once, however many
    /// processes wanted it. A lock holder that dies must release it with its death, or within a
    /// bound. The default runs `body` alone: a store one process uses needs no lock.
    /// - Throws: `storageFailed` when the lock cannot be taken; `body`'s errors.
    func withRefreshLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T

    /// How the client finds out, on the path where the access token is fresh, that another
    /// process ended the session or replaced it with another account's (default
    /// ``StoredSessionChangeDetection/none``).
    var changeDetection: StoredSessionChangeDetection { get }

    /// With ``StoredSessionChangeDetection/stamp``: a stamp of the version stored now, told apart
    /// from the next without reading the session (a file's identity and time, a digest, a version
    /// number); nil when nothing is stored. Called at every call of the client: it must be cheap
    /// and must not block for long. The default is nil.
    func storedSessionStamp() -> StoredSessionStamp?

    /// Where the provider's discovery document and key set are kept beside the session, so a new
    /// process makes no request before its own (default nil: the provider's memory only).
    var providerDocumentCache: (any ProviderDocumentCache)? { get }
}

/// How a ``SessionClient`` finds out that its shared store's session changed elsewhere, on the
/// path where its access token is fresh (a refresh always reads the store under its lock).
public enum StoredSessionChangeDetection: Sendable, Equatable {
    /// Not looked for: a change made elsewhere shows at the next refresh.
    case none
    /// At every call, by ``TokenStore/storedSessionStamp()``: the session is read only when its
    /// stamp changed. For a store on this device, which answers at once.
    case stamp
    /// By reading the session again once `every` seconds passed since this client last read or
    /// wrote it (0: at every call). For a store across the network, which cannot answer for free.
    case reread(every: TimeInterval)
}

extension TokenStore {
    /// False: the store is this process's alone.
    public var isShared: Bool { false }

    /// Runs `body`: a store one process uses needs no lock.
    public func withRefreshLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await body()
    }

    /// ``StoredSessionChangeDetection/none``.
    public var changeDetection: StoredSessionChangeDetection { .none }

    /// nil: the store cannot tell a version without reading it.
    public func storedSessionStamp() -> StoredSessionStamp? { nil }

    /// nil: the provider's documents are kept in its memory only.
    public var providerDocumentCache: (any ProviderDocumentCache)? { nil }
}
