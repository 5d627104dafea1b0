import Foundation

/// A pushed authorization request (RFC 9126): the sign-in's parameters go to the provider in an
/// authenticated POST, and the browser gets only `client_id` and the `request_uri` the provider
/// answered with, so nothing of the request can be read or changed on the way through it.
enum PushedAuthorization {
    /// What the provider answered: the reference to the pushed request and how long it lasts.
    struct Reference {
        let requestURI: String
        let expiresIn: TimeInterval
    }

    /// Whether a sign-in at this provider pushes its request: when the configuration asks for it,
    /// and always when the provider requires it.
    /// - Throws: `unsupportedProviderFeature` when the configuration asks for it and the provider
    ///   has no pushed authorization request endpoint.
    static func isUsed(configuration: SessionConfiguration, metadata: ProviderMetadata) throws -> Bool {
        guard configuration.pushesAuthorizationRequests || metadata.requirePushedAuthorizationRequests else { return false }
        guard metadata.pushedAuthorizationRequestEndpoint != nil else {
            throw SessionError(.unsupportedProviderFeature, process: .authentication,
                               message: "pushed authorization requests are configured, but the provider has no pushed_authorization_request_endpoint")
        }
        return true
    }

    /// The provider's answer to a push (201, or 200, with `request_uri` and a positive `expires_in`).
    /// - Throws: the provider's OAuth error (`invalid_request`, `invalid_client`, ...) or
    ///   `invalidResponse` for an answer that is not a reference.
    static func reference(_ response: HTTPResponse) throws -> Reference {
        guard response.status == 201 || response.status == 200 else {
            throw ProviderExchange.statusError(response, process: .authentication, purpose: "pushed authorization request")
        }
        let fields = try JSONFields(data: response.body) { why in
            SessionError(.invalidResponse, process: .authentication, message: "pushed authorization request: \(why)")
        }
        let requestURI = try fields.requiredString("request_uri")
        guard !requestURI.isEmpty, requestURI.utf8.count <= 2048 else { throw fields.fail("'request_uri' is empty or too long") }
        guard let expiresIn = try fields.number("expires_in"), expiresIn > 0, expiresIn.isFinite else {
            throw fields.fail("'expires_in' is missing or not a positive number")
        }
        return Reference(requestURI: requestURI, expiresIn: expiresIn)
    }

    /// The parameters `request` carries to the authorization endpoint, without those the endpoint's
    /// own URL has and without `client_id`, which the client's authentication adds.
    static func parameters(of request: AuthorizationRequest, endpoint: URL) -> [(String, String)] {
        let own = (URLComponents(url: endpoint, resolvingAgainstBaseURL: false)?.queryItems ?? []).map(\.name) + ["client_id"]
        let items = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return items.filter { !Exact.contains(own, $0.name) }.map { ($0.name, $0.value ?? "") }
    }
}
