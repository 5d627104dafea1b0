import Foundation

/// Where a client keeps its dynamic registrations (``RegisteredClient``), one per authorization
/// server, so a later run signs in with the same `client_id` instead of registering again.
public protocol ClientRegistrationStore: Sendable {
    /// The registration kept for `issuer`; nil when there is none.
    func loadRegistration(issuer: String) async throws -> RegisteredClient?
    /// Keeps `registration` for its issuer, replacing any earlier one.
    func saveRegistration(_ registration: RegisteredClient) async throws
    /// Forgets the registration kept for `issuer`, if any.
    func removeRegistration(issuer: String) async throws
}

/// Registrations in memory, for as long as the process runs.
public actor InMemoryClientRegistrationStore: ClientRegistrationStore {
    private var registrations: [String: RegisteredClient] = [:]

    /// An empty store.
    public init() {}

    /// The registration kept for `issuer`.
    public func loadRegistration(issuer: String) -> RegisteredClient? { registrations[issuer] }
    /// Keeps `registration`.
    public func saveRegistration(_ registration: RegisteredClient) { registrations[registration.issuer] = registration }
    /// Forgets `issuer`'s registration.
    public func removeRegistration(issuer: String) { registrations[issuer] = nil }
}

/// Registrations in files, one per authorization server, written and read as ``FileTokenStore``
/// writes and reads its sessions (mode 0600, atomic replace, no symbolic link followed), in the
/// same default directory. They hold the client's secret and registration access token, when the
/// server issued them.
public struct FileClientRegistrationStore: ClientRegistrationStore {
    private let directory: URL

    /// A store in `directory` (default: ``FileTokenStore/defaultDirectory()``).
    public init(directory: URL? = nil) throws {
        self.directory = try directory ?? FileTokenStore.defaultDirectory()
    }

    /// The file store for `issuer`: a file name derived from a SHA-256 of the issuer.
    private func files(_ issuer: String) throws -> FileTokenStore {
        let name = try PlatformCrypto.hexDigest(of: issuer, bytes: 16)
        return FileTokenStore(besideFile: directory.appendingPathComponent("client-\(name)"), issuer: issuer)
    }

    /// The registration kept for `issuer`; nil when there is none, or it names another issuer.
    /// - Throws: `storageFailed` for an unsafe file; `storageCorrupt` for an unreadable one.
    public func loadRegistration(issuer: String) async throws -> RegisteredClient? {
        guard let registration = try await files(issuer).loadRegistration(), Exact.equal(registration.issuer, issuer) else { return nil }
        return registration
    }

    /// Keeps `registration` in its issuer's file.
    public func saveRegistration(_ registration: RegisteredClient) async throws {
        try await files(registration.issuer).saveRegistration(registration)
    }

    /// Deletes `issuer`'s file; succeeds when there is none.
    public func removeRegistration(issuer: String) async throws {
        try await files(issuer).saveRegistration(nil)
    }
}
