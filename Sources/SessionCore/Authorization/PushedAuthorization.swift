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

extension SessionClient {
    /// Pushes `request`'s parameters to the provider (with the client's authentication, and a
    /// DPoP proof made with the key its code is bound to) and
    /// returns the request the browser is sent to: the authorization endpoint with `client_id`
    /// and `request_uri` only, expiring when the provider said.
    func pushed(_ request: AuthorizationRequest, metadata: ProviderMetadata) async throws -> AuthorizationRequest {
        guard let endpoint = metadata.pushedAuthorizationRequestEndpoint else { return request }
        let post = try provider.clientRequest(endpoint, PushedAuthorization.parameters(of: request, endpoint: metadata.authorizationEndpoint),
                                              metadata: metadata, process: .authentication)
        let response = try await sendProved(post, key: request.dpopKey, process: .authentication, purpose: "pushed authorization request")
        let reference = try PushedAuthorization.reference(response)
        guard let url = FormEncoding.url(metadata.authorizationEndpoint,
                                         appending: [("client_id", configuration.clientID), ("request_uri", reference.requestURI)]) else {
            throw SessionError(.invalidDiscoveryDocument, process: .authentication, message: "the authorization URL cannot be built")
        }
        return request.pointing(to: url, expiresAt: clock.now().addingTimeInterval(reference.expiresIn))
    }
}
