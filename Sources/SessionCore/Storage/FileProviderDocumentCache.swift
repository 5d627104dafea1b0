import Foundation

/// An ``OpenIDProvider``'s documents in one file for its issuer and client, read by every session
/// on the provider and by the next process: a server with many sessions reads them once, not
/// once per session.
///
/// The file is written and read as ``FileTokenStore`` writes and reads its own (mode 0600,
/// atomic replace, a directory only its owner may write to, no symbolic link followed), in the
/// same default directory; it never holds tokens.
public struct FileProviderDocumentCache: ProviderDocumentCache {
    /// A store whose session file is never written: only its documents file is used, so the
    /// documents get every safeguard of the session files.
    private let files: FileTokenStore

    /// The cache for `configuration`'s issuer and client in `directory` (default: the XDG data
    /// directory, as ``FileTokenStore/defaultDirectory()``). The file name is derived from a
    /// SHA-256 of issuer and client ID.
    public init(configuration: SessionConfiguration, directory: URL? = nil) throws {
        let base = try directory ?? FileTokenStore.defaultDirectory()
        let name = try PlatformCrypto.hexDigest(of: "\(configuration.issuer.absoluteString)\n\(configuration.clientID)", bytes: 16)
        files = FileTokenStore(fileURL: base.appendingPathComponent("documents-\(name)"), configuration: configuration)
    }

    /// The file the documents are kept in.
    public var fileURL: URL { files.providerDocumentsURL }

    /// The documents saved earlier; nil when there are none, they cannot be read, or the file is
    /// unsafe to read.
    public func loadProviderDocuments() async -> ProviderDocuments? {
        await files.loadProviderDocuments()
    }

    /// Saves `documents`, replacing the file atomically; a failure only costs a later process a request.
    public func saveProviderDocuments(_ documents: ProviderDocuments) async {
        await files.saveProviderDocuments(documents)
    }
}
