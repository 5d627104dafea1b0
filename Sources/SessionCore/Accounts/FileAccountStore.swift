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
        FileTokenStore(fileURL: try fileURL(forSubject: subject), configuration: configuration)
    }

    /// The sessions of the files in the directory that can be read and hold their own subject's
    /// session (a file copied under another account's name is left out).
    public func storedSessions() async throws -> [SessionTokens] {
        let directory = self.directory
        guard let names = await BlockingStoreWork.perform({ try? FileManager.default.contentsOfDirectory(atPath: directory.path) }) else { return [] }
        var sessions: [SessionTokens] = []
        for name in names.sorted() where name.hasPrefix("account-") && name.hasSuffix(".json") {
            let file = directory.appendingPathComponent(name)
            guard let tokens = try? await FileTokenStore(fileURL: file, configuration: configuration).load(), let subject = tokens.subject,
                  Exact.equal(try fileURL(forSubject: subject).lastPathComponent, name) else { continue }
            sessions.append(tokens)
        }
        return sessions
    }

    private func fileURL(forSubject subject: String) throws -> URL {
        directory.appendingPathComponent("account-\(try PlatformCrypto.hexDigest(of: subject, bytes: 16)).json")
    }
}
