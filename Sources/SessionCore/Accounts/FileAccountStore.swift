import Foundation

/// Several accounts' sessions at one provider, a ``FileTokenStore`` file each in a directory of
/// their own for the issuer and client: `accounts-<digest>/account-<digest of sub>.json`. Each
/// file has every safeguard of a session file (mode 0600, atomic replace, the refresh lock of a
/// ``SharedTokenStore``, so several processes may use the same account).
public struct FileAccountStore: AccountStore {
    /// The directory the accounts' files are in.
    public let directory: URL
    private let configuration: SessionConfiguration

    /// The accounts of `configuration`'s issuer and client under `directory` (default: the XDG
    /// data directory, as ``FileTokenStore/defaultDirectory()``).
    public init(configuration: SessionConfiguration, directory: URL? = nil) throws {
        let base = try directory ?? FileTokenStore.defaultDirectory()
        let name = try PlatformCrypto.hexDigest(of: "\(configuration.issuer.absoluteString)\n\(configuration.clientID)", bytes: 16)
        self.directory = base.appendingPathComponent("accounts-\(name)")
        self.configuration = configuration
    }

    /// The session file of the account with `subject`.
    public func tokenStore(forSubject subject: String) throws -> TokenStore {
        FileTokenStore(fileURL: directory.appendingPathComponent("account-\(try PlatformCrypto.hexDigest(of: subject, bytes: 16)).json"),
                       configuration: configuration)
    }

    /// The subjects of the session files in the directory that can be read; one that cannot is
    /// left out (``AccountSessions/accounts()`` lists what can be opened).
    public func storedSubjects() async throws -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        var subjects: [String] = []
        for name in names.sorted() where name.hasPrefix("account-") && name.hasSuffix(".json") {
            let store = FileTokenStore(fileURL: directory.appendingPathComponent(name), configuration: configuration)
            guard let tokens = try? await store.load(), let subject = tokens.subject,
                  Exact.equal(try tokenStore(forSubject: subject).fileURLPath, store.fileURL.path) else { continue }
            subjects.append(subject)
        }
        return subjects
    }
}

private extension TokenStore {
    /// The session file's path, for a store that is a file.
    var fileURLPath: String? { (self as? FileTokenStore)?.fileURL.path }
}
