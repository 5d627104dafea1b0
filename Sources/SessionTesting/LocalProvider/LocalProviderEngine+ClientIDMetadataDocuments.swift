import Foundation
import SessionCore

/// Clients known by the URL of their metadata document (draft-ietf-oauth-client-id-metadata-document),
/// read from ``LocalProvider/Options/clientIDMetadataDocuments`` where a server would fetch them.
extension LocalProviderEngine {
    /// The client whose ID is the URL of one of the documents, when the provider takes such
    /// clients and the document passes the checks a server makes of it (§4): a JSON object whose
    /// `client_id` is that very URL, naming `redirect_uris`, public (`token_endpoint_auth_method`
    /// absent or `none`) and holding no `client_secret`. Nil otherwise: an unknown client.
    func documentedClient(_ id: String) -> LocalProvider.Client? {
        guard options.advertisesClientIDMetadataDocuments, let data = options.clientIDMetadataDocuments[id],
              let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              Exact.equal(document["client_id"] as? String, id),
              let uris = document["redirect_uris"] as? [String], !uris.isEmpty,
              document["client_secret"] == nil else { return nil }
        if let method = document["token_endpoint_auth_method"] {
            guard Exact.equal(method as? String, "none") else { return nil }
        }
        let redirectURIs = uris.compactMap { URL(string: $0) }
        guard redirectURIs.count == uris.count else { return nil }
        return LocalProvider.Client(id: id, redirectURIs: redirectURIs)
    }
}
