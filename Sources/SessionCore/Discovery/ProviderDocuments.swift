import Foundation

/// What a client learned from its provider and may reuse in a later process while it is fresh:
/// the discovery document and the key set, as received, each with the time its
/// `Cache-Control` lets it be used until (see ``SessionClient/discover()``).
///
/// Read back, the documents are checked exactly as when they came from the provider: a document
/// of another issuer, or one no longer valid, is asked for again.
public struct ProviderDocuments: Sendable, Codable, Equatable {
    /// The issuer the documents belong to.
    public var issuer: String
    /// The discovery document's bytes.
    public var discovery: Data
    /// Until when the discovery document may be used without asking again.
    public var discoveryExpiresAt: Date
    /// The JWK Set's bytes, once fetched.
    public var keySet: Data?
    /// When the key set was fetched.
    public var keySetFetchedAt: Date?
    /// Until when the key set may be used without asking again.
    public var keySetExpiresAt: Date?

    /// Creates the documents.
    public init(issuer: String, discovery: Data, discoveryExpiresAt: Date, keySet: Data? = nil, keySetFetchedAt: Date? = nil,
                keySetExpiresAt: Date? = nil) {
        self.issuer = issuer
        self.discovery = discovery
        self.discoveryExpiresAt = discoveryExpiresAt
        self.keySet = keySet
        self.keySetFetchedAt = keySetFetchedAt
        self.keySetExpiresAt = keySetExpiresAt
    }
}

/// Keeps an ``OpenIDProvider``'s documents across runs, so a new process makes no request for
/// them while they are fresh (``FileProviderDocumentCache``). Neither call throws: the documents
/// are a cache, and without them the provider is asked.
public protocol ProviderDocumentCache: Sendable {
    /// The documents saved earlier; nil when there are none or they cannot be read.
    func loadProviderDocuments() async -> ProviderDocuments?
    /// Saves `documents`, replacing earlier ones; a failure is ignored.
    func saveProviderDocuments(_ documents: ProviderDocuments) async
}

/// A ``TokenStore`` that also keeps the provider's documents, so a new process with a fresh
/// session makes no request before its own: ``FileTokenStore`` keeps them in a file beside the
/// session. A client made with ``SessionClient/init(configuration:store:transport:clock:logger:)``
/// keeps its provider's documents there; sessions sharing an ``OpenIDProvider`` use the
/// provider's cache instead.
public protocol ProviderDocumentStore: TokenStore, ProviderDocumentCache {}

extension ProviderDocumentStore {
    /// The store itself: it keeps the provider's documents beside the session.
    public var providerDocumentCache: (any ProviderDocumentCache)? { self }
}
