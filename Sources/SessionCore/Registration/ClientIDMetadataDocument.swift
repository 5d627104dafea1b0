import Foundation

/// Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document): a client whose
/// `client_id` is the https URL of a JSON document describing it, for authorization servers that
/// say `client_id_metadata_document_supported` (``ProviderMetadata/clientIDMetadataDocumentSupported``).
package enum ClientIDMetadataDocument {
    /// Refuses a document URL that no authorization server takes as a client identifier (§3):
    /// not https, without a host, without a path below the root (a bare origin names a site, and
    /// MCP's SDKs refuse `/` too), or with a fragment, a user or password, or a `.` or `..` segment.
    /// - Throws: `invalidConfiguration` (process `configuration`) naming the rule the URL breaks;
    ///   the message shows the URL without its user, password, query values or fragment.
    package static func checkClientIdentifier(_ url: URL) throws {
        func refused(_ why: String) -> SessionError {
            SessionError(.invalidConfiguration, process: .configuration, message: "client ID metadata document: '\(Redaction.url(url))' \(why)")
        }
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              components.scheme.map({ ASCII.equalIgnoringCase($0, "https") }) ?? false else {
            throw refused("must be an https URL")
        }
        guard let host = components.host, !host.isEmpty else { throw refused("has no host") }
        let path = components.percentEncodedPath
        guard !path.isEmpty, !Exact.equal(path, "/") else { throw refused("has no path") }
        guard components.fragment == nil else { throw refused("has a fragment") }
        guard components.user == nil, components.password == nil else { throw refused("has a user or password") }
        guard !ProtectedResourceMetadata.hasDotSegment(path) else { throw refused("has a '.' or '..' segment") }
    }
}
