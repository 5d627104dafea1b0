import Foundation
import LoopbackHTTP
import SessionCore

/// Dynamic client registration (RFC 7591 §3), as strict as a server that takes it from anyone:
/// redirect URIs required and checked, only the grant types and authentication methods it
/// supports.
extension LocalProviderEngine {
    func register(_ request: HTTPServerRequest) -> HTTPServerResponse {
        guard options.offersDynamicRegistration else { return .text("Not found", status: 404) }
        guard request.method == "POST" else { return Self.oauthError("invalid_request", "registration takes POST", status: 405) }
        func refuse(_ error: String, _ description: String) -> HTTPServerResponse { Self.oauthError(error, description) }
        guard (request.header("Content-Type") ?? "").lowercased().hasPrefix("application/json"),
              let metadata = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any] else {
            return refuse("invalid_client_metadata", "the body is not a JSON object")
        }
        guard let uris = metadata["redirect_uris"] as? [String], !uris.isEmpty,
              let redirectURIs = Optional(uris.compactMap(URL.init(string:))), redirectURIs.count == uris.count,
              redirectURIs.allSatisfy(Self.isRegistrableRedirectURI) else {
            return refuse("invalid_redirect_uri", "redirect_uris must be https, loopback http or private-use URIs without fragment")
        }
        let grantTypes = metadata["grant_types"] as? [String] ?? ["authorization_code"]
        guard Set(grantTypes).isSubset(of: ["authorization_code", "refresh_token"]) else {
            return refuse("invalid_client_metadata", "only authorization_code and refresh_token are supported")
        }
        let method = metadata["token_endpoint_auth_method"] as? String ?? "client_secret_basic"
        let id = Self.randomValue("dyn")
        let now = options.clock.now()
        var answer: [String: Any] = [
            "client_id": id, "client_id_issued_at": Int(now.timeIntervalSince1970), "redirect_uris": uris,
            "grant_types": grantTypes, "token_endpoint_auth_method": method,
            "registration_access_token": Self.randomValue("rat"), "registration_client_uri": issuer + "/register/" + id,
        ]
        if let name = metadata["client_name"] as? String { answer["client_name"] = name }
        let client: LocalProvider.Client
        var expiresAt: Date?
        switch method {
        case "none":
            client = LocalProvider.Client(id: id, redirectURIs: redirectURIs)
        case "client_secret_basic", "client_secret_post":
            let secret = Self.randomValue("secret")
            client = LocalProvider.Client(id: id, redirectURIs: redirectURIs,
                                          authentication: method == "client_secret_post" ? .clientSecretPost(secret) : .clientSecretBasic(secret))
            expiresAt = options.registrationLifetime.map { now.addingTimeInterval($0) }
            answer["client_secret"] = secret
            answer["client_secret_expires_at"] = expiresAt.map { Int($0.timeIntervalSince1970) } ?? 0
        default:
            return refuse("invalid_client_metadata", "token_endpoint_auth_method must be none, client_secret_basic or client_secret_post")
        }
        registeredClients.withLock { $0[id] = (client, expiresAt) }
        return Self.json(answer, status: 201)
    }

    /// RFC 8252 §7 and RFC 6749 §3.1.2: https, http on a loopback IP literal, or a private-use
    /// scheme; never a fragment.
    private static func isRegistrableRedirectURI(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), url.fragment == nil else { return false }
        switch scheme {
        case "https": return url.host?.isEmpty == false
        case "http": return URLRules.isLoopbackIPLiteral(host: url.host)
        default: return scheme.contains(".")
        }
    }
}
