import Foundation
import SessionCore

/// How an MCP client gets a `client_id` at an authorization server it may never have met, in
/// the order MCP's authorization specification prefers them: the first one the server takes is
/// used.
public enum MCPClientRegistration: Sendable {
    /// A client registered beforehand at that server (by its issuer; any issuer when nil).
    case preRegistered(clientID: String, issuer: URL? = nil, authentication: ClientAuthentication = .none)
    /// A Client ID Metadata Document: the https URL of a JSON document the app publishes, used as
    /// the `client_id` where the server says `client_id_metadata_document_supported`. The
    /// document must hold `client_id` (this very URL), `client_name` and `redirect_uris`, and
    /// should say `"token_endpoint_auth_method": "none"`. The URL itself must be one a server
    /// takes as a client identifier: https, with a host and a path below the root, without a
    /// fragment, a user or password, or a `.` or `..` segment;
    /// ``MCPServerAuthorization/connect(agent:challenge:)`` refuses another before it sends anything.
    case clientIDMetadataDocument(URL)
    /// RFC 7591 dynamic registration at the server's `registration_endpoint` (deprecated by MCP's
    /// 2026-07-28 revision, still widely deployed), the registration kept in `store` per server
    /// and reused until it expires.
    case dynamic(ClientMetadata, store: any ClientRegistrationStore)
}

extension MCPClientRegistration {
    /// Refuses a Client ID Metadata Document URL that no authorization server takes as a client
    /// identifier, so the app learns of its mistake before a browser opens, not from a server's
    /// error page.
    /// - Throws: `invalidConfiguration` naming the rule the URL breaks.
    func checkClientIdentifier() throws {
        if case .clientIDMetadataDocument(let document) = self { try ClientIDMetadataDocument.checkClientIdentifier(document) }
    }
}
