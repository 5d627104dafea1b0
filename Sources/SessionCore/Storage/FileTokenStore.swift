import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The Linux default ``TokenStore``: one JSON file per issuer and client, readable only by the
/// user (mode 0600, in a 0700 directory), replaced atomically on every save.
///
/// The default directory is `$XDG_DATA_HOME/SessionService` (or `~/.local/share/SessionService`).
/// The file records the issuer and client it belongs to; a file of another client or user, a
/// truncated or corrupt file, or one over 1 MiB is reported as `storageCorrupt` and left in
/// place. A file others can read is narrowed to 0600 when loaded.
///
/// The store trusts nothing it finds on disk (see the Security article): it never follows a
/// symbolic link at the session file or its temporary file, never opens anything but a regular
/// file (a FIFO or device there is refused at once, never waited on), changes the mode only of
/// a regular file the user owns, and refuses a directory that another user owns or that group
/// or others may write to, since whoever can write there could plant a link or a file. Each of
/// these is `storageFailed` with a message that says which.
///
/// Several processes may share one session file: refreshes take a lock beside it
/// (``withRefreshLock(_:)``, ``SharedTokenStore``), so a rotating refresh token is spent once.
public struct FileTokenStore: SharedTokenStore, ProviderDocumentStore {
    /// The file the session is kept in.
    public let fileURL: URL
    private let codec: StoredSessionCodec

    /// A store for `configuration`'s issuer and client in `directory` (default: the XDG data
    /// directory). The file name is derived from a SHA-256 of issuer and client ID.
    public init(configuration: SessionConfiguration, directory: URL? = nil) throws {
        let base = try directory ?? Self.defaultDirectory()
        let name = try PlatformCrypto.hexDigest(of: "\(configuration.issuer.absoluteString)\n\(configuration.clientID)", bytes: 16)
        self.init(fileURL: base.appendingPathComponent("session-\(name).json"), configuration: configuration)
    }

    /// A store in the given file for `configuration`'s issuer and client.
    public init(fileURL: URL, configuration: SessionConfiguration) {
        self.fileURL = fileURL
        self.codec = StoredSessionCodec(configuration: configuration, location: fileURL.path)
    }

    /// A store in `fileURL` whose session file is never written, for what is kept beside it
    /// under the same safeguards (``FileClientRegistrationStore``).
    init(besideFile fileURL: URL, issuer: String) {
        self.fileURL = fileURL
        self.codec = StoredSessionCodec(issuer: issuer, clientID: "", location: fileURL.path)
    }

    /// Where ``FileClientRegistrationStore`` keeps a registration: beside the (unwritten) session file.
    var registrationURL: URL { fileURL.appendingPathExtension("registration") }

    /// The registration kept beside the session file; nil when there is none.
    /// - Throws: `storageFailed` for an unsafe file (as for the session file); `storageCorrupt`
    ///   for one that is not a registration.
    func loadRegistration() async throws -> RegisteredClient? {
        try await BlockingStoreWork.run { [self] in
            guard try checkDirectory(mustExist: false), let data = try readFile(registrationURL) else { return nil }
            do {
                return try JSONDecoder().decode(RegisteredClient.self, from: data)
            } catch {
                throw failure(.storageCorrupt, "the client registration file cannot be read")
            }
        }
    }

    /// Saves `registration` beside the session file, as the session itself is saved.
    func saveRegistration(_ registration: RegisteredClient?) async throws {
        guard let registration else {
            try await BlockingStoreWork.run { [self] in
                guard unlink(registrationURL.path) == 0 || errno == ENOENT else { throw posixFailure("cannot delete the client registration") }
            }
            return
        }
        let data = try JSONEncoder().encode(registration)
        try await BlockingStoreWork.run { [self] in try writeAtomically(data, to: registrationURL) }
    }

    /// `$XDG_DATA_HOME/SessionService`, or `$HOME/.local/share/SessionService`.
    public static func defaultDirectory() throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("SessionService")
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else {
            throw SessionError(.storageFailed, process: .configuration, message: "neither XDG_DATA_HOME nor HOME is an absolute path")
        }
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/SessionService")
    }

    /// Whether a session is stored, answered at once from the file's presence without reading
    /// it, for legacy calls that must answer synchronously (Google Sign-In's
    /// `hasPreviousSignIn()`). A file that turns out unreadable still counts; ``load()`` says so.
    public var hasStoredSession: Bool {
        FileManager.default.fileExists(atPath: fileURL.path)
    }

    /// ``StoredSessionChangeDetection/stamp``: every save renames a new file over the old, so a
    /// stat tells a new version.
    public var changeDetection: StoredSessionChangeDetection { .stamp }

    /// Reads the session (on a store thread, ``BlockingStoreWork``); nil when the file does not exist.
    public func load() async throws -> SessionTokens? {
        try await BlockingStoreWork.run { [self] in try loadNow() }
    }

    /// ``load()``, answered at once (``LocalTokenStore/loadNow()``).
    public func loadNow() throws -> SessionTokens? {
        guard try checkDirectory(mustExist: false), let data = try readFile() else { return nil }
        return try decode(data)
    }

    /// The session a file's contents hold, for this store's issuer and client.
    /// - Throws: `storageCorrupt` for anything but such a session.
    func decode(_ data: Data) throws -> SessionTokens {
        try codec.decode(data)
    }

    /// Writes the session to a temporary file (0600), syncs it and renames it over the old one,
    /// on a store thread (``BlockingStoreWork``).
    public func save(_ tokens: SessionTokens) async throws {
        let data = try codec.encode(tokens)
        try await BlockingStoreWork.run { [self] in try writeAtomically(data, to: fileURL) }
    }

    /// Writes `data` to a temporary file (0600) beside `url`, syncs it and renames it over `url`.
    private func writeAtomically(_ data: Data, to url: URL) throws {
        let directory = url.deletingLastPathComponent().path
        try makeDirectory(directory)
        _ = try checkDirectory(mustExist: true)
        let temporary = "\(url.path).\(ProcessInfo.processInfo.processIdentifier).\(UInt32.random(in: .min ... .max)).tmp"
        defer { removeTemporariesOfDeadWriters(beside: url) }
        // O_EXCL with O_CREAT fails on anything already there, a symbolic link included.
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw posixFailure("cannot create a file in \(directory)") }
        var written = 0
        let status = data.withUnsafeBytes { bytes -> Int32 in
            guard let base = bytes.baseAddress else { return -1 }
            while written < bytes.count {
                let count = write(descriptor, base + written, bytes.count - written)
                if count < 0 { if errno == EINTR { continue }; return -1 }
                written += count
            }
            return fsync(descriptor)
        }
        let savedErrno = errno
        close(descriptor)
        guard status == 0 else {
            unlink(temporary)
            errno = savedErrno
            throw posixFailure("cannot write the session file")
        }
        guard rename(temporary, url.path) == 0 else {
            let renameErrno = errno
            unlink(temporary)
            errno = renameErrno
            throw posixFailure("cannot replace the session file")
        }
    }

    /// Deletes the file, and the provider documents kept beside it; succeeds when they do not exist.
    public func clear() async throws {
        try await BlockingStoreWork.run { [self] in
            guard unlink(fileURL.path) == 0 || errno == ENOENT else { throw posixFailure("cannot delete the session file") }
            unlink(providerDocumentsURL.path)
        }
    }

    /// Runs `body` holding an exclusive `flock` on `<session file>.lock` (created 0600 beside the
    /// session file, and never deleted: a lock file removed while another process waits on it
    /// would let a third take a lock of its own); see ``SharedTokenStore``.
    public func withRefreshLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try makeDirectory(fileURL.deletingLastPathComponent().path)
        _ = try checkDirectory(mustExist: true)
        let lock = try await RefreshLockFile.acquire(fileURL.path + ".lock")
        defer { lock.release() }
        return try await body()
    }

    /// Where ``ProviderDocumentStore`` keeps the provider's documents: beside the session file.
    var providerDocumentsURL: URL { fileURL.appendingPathExtension("provider") }

    /// The provider documents saved beside the session; nil when there are none or they cannot be
    /// read, since the client then asks the provider.
    public func loadProviderDocuments() async -> ProviderDocuments? {
        await BlockingStoreWork.perform { [self] in
            guard (try? checkDirectory(mustExist: false)) == true, let data = try? readFile(providerDocumentsURL) else { return nil }
            return try? JSONDecoder().decode(ProviderDocuments.self, from: data)
        }
    }

    /// Saves `documents` beside the session, as the session itself is saved; a failure only
    /// costs a later process a request.
    public func saveProviderDocuments(_ documents: ProviderDocuments) async {
        guard let data = try? JSONEncoder().encode(documents) else { return }
        await BlockingStoreWork.perform { [self] in _ = try? writeAtomically(data, to: providerDocumentsURL) }
    }

    private func readFile(_ url: URL? = nil) throws -> Data? {
        let url = url ?? fileURL
        // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it.
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        if descriptor < 0 {
            switch errno {
            case ENOENT: return nil
            case ELOOP, EMLINK: throw failure(.storageFailed, "the session file is a symbolic link, which the store does not follow")
            default: throw posixFailure("cannot open the session file")
            }
        }
        defer { close(descriptor) }
        try restrictToOwner(descriptor)
        switch RegularFile.contents(of: descriptor, limit: StoredSessionCodec.maximumSize) {
        case .data(let data): return data
        case .tooLarge: throw failure(.storageCorrupt, "the session file is larger than 1 MiB")
        case .failed: throw posixFailure("cannot read the session file")
        }
    }

    /// A session file others can read (copied in, or made by an older tool) is narrowed to 0600
    /// before its tokens are used; anything but a regular file, and one owned by another user,
    /// is refused untouched.
    private func restrictToOwner(_ descriptor: Int32) throws {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw posixFailure("cannot inspect the session file") }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw failure(.storageFailed, "the session file is not a regular file (a FIFO, device or directory is never read)")
        }
        guard status.st_uid == getuid() else { throw failure(.storageCorrupt, "the session file belongs to another user") }
        if status.st_mode & 0o077 != 0, fchmod(descriptor, 0o600) != 0 {
            throw posixFailure("the session file is readable by others and cannot be restricted")
        }
    }

    /// Whether the store's directory exists, once it is known to be safe: a directory the user
    /// owns that neither group nor others may write to.
    /// - Throws: `storageFailed` saying why the directory is refused, or that it is missing when
    ///   `mustExist`.
    private func checkDirectory(mustExist: Bool) throws -> Bool {
        let path = fileURL.deletingLastPathComponent().path
        var status = stat()
        guard stat(path, &status) == 0 else {
            if errno == ENOENT, !mustExist { return false }
            throw posixFailure("cannot inspect the store directory \(path)")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw failure(.storageFailed, "\(path) is not a directory") }
        guard status.st_uid == getuid() else {
            throw failure(.storageFailed, "the store directory \(path) belongs to another user; choose a directory of your own")
        }
        guard status.st_mode & 0o022 == 0 else {
            throw failure(.storageFailed, "group or others can write to the store directory \(path) (mode \(String(status.st_mode & 0o777, radix: 8))); "
                + "make it writable by its owner only (chmod go-w) or choose another")
        }
        return true
    }

    /// Deletes the temporary files (`<file>.<pid>.<random>.tmp`) that writers killed mid-write left
    /// beside `url`: each names its writer, and one whose process is gone will never rename it.
    /// Only files older than a minute go: a write takes milliseconds, and a writer in another PID
    /// namespace (a container sharing the directory) looks gone to `kill(pid, 0)` while it writes.
    private func removeTemporariesOfDeadWriters(beside url: URL) {
        let directory = url.deletingLastPathComponent().path
        let prefix = url.lastPathComponent + "."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        let cutoff = Date(timeIntervalSinceNow: -60)
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            let middle = name.dropFirst(prefix.count).dropLast(4).split(separator: ".")
            guard middle.count == 2, let pid = Int32(middle[0]), pid > 0, UInt32(middle[1]) != nil else { continue }
            let path = directory + "/" + name
            guard let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                  modified < cutoff else { continue }
            // kill(pid, 0) fails with ESRCH only when no such process exists.
            if kill(pid, 0) != 0, errno == ESRCH { unlink(path) }
        }
    }

    private func makeDirectory(_ path: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw failure(.storageFailed, "\(path) is not a directory") }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw failure(.storageFailed, "cannot create \(path)")
        }
    }

    private func failure(_ code: SessionError.Code, _ why: String) -> SessionError {
        SessionError(code, process: .configuration, message: "\(why) (\(fileURL.path))")
    }

    private func posixFailure(_ why: String) -> SessionError {
        failure(.storageFailed, "\(why): \(String(cString: strerror(errno)))")
    }
}
