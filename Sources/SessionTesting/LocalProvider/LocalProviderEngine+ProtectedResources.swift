import Foundation
import LoopbackHTTP
import SessionCore

/// The protected resources under `/api` (``LocalProvider/ProtectedResource``) and their metadata
/// (RFC 9728): audience-restricted tokens (RFC 8707) and scope checks, as a strict resource server
/// makes them.
extension LocalProviderEngine {
    /// The identifiers of the configured resources: what a `resource` parameter may name.
    var knownResources: Set<String> { Set(options.protectedResources.map { issuer + $0.path }) }

    /// The configured resource serving `path`: the most specific one whose path is it or above it.
    private func protectedResource(serving path: String) -> LocalProvider.ProtectedResource? {
        options.protectedResources.filter { path == $0.path || path.hasPrefix($0.path + "/") }.max { $0.path.count < $1.path.count }
    }

    func serveProtectedResource(_ request: HTTPServerRequest) -> HTTPServerResponse {
        guard let resource = protectedResource(serving: request.path) else { return .text("Not found", status: 404) }
        let identifier = issuer + resource.path
        let metadata = issuer + LocalProvider.Endpoint.resourceMetadata.path + resource.path
        let scope = resource.scopes.sorted().joined(separator: " ")
        func challenge(_ status: Int, _ error: String?, _ description: String, extra: [String] = []) -> HTTPServerResponse {
            var parameters = [#"resource_metadata="\#(metadata)""#] + extra
            if !scope.isEmpty { parameters.append(#"scope="\#(scope)""#) }
            if let error { parameters += [#"error="\#(error)""#, #"error_description="\#(description)""#] }
            return HTTPServerResponse(status: status, headers: [("WWW-Authenticate", "Bearer " + parameters.joined(separator: ", "))])
        }
        guard let (_, token) = Self.presentedToken(request) else { return challenge(401, nil, "") }
        let grant: Grant
        switch authorizedGrant(request, at: .protectedResource) {
        case .refused(let refusal): return refusal
        case .passed(let found): grant = found
        }
        let audience = withState { $0.accessTokens[token]?.audience } ?? []
        guard audience.contains(identifier) else { return challenge(401, "invalid_token", "the access token was not issued for this resource") }
        guard resource.scopes.isSubset(of: grant.scopes) else { return challenge(403, "insufficient_scope", "the access token lacks a scope this resource needs") }
        if let maxAge = resource.maxAge, options.clock.now().timeIntervalSince(grant.authenticatedAt) > Double(maxAge) {
            return challenge(401, "insufficient_user_authentication", "the user authenticated too long ago", extra: [#"max_age="\#(maxAge)""#])
        }
        return Self.json(["resource": identifier, "sub": grant.subject, "scope": grant.scopes.sorted().joined(separator: " ")],
                         headers: grant.jkt == nil ? [] : nonceHeaders)
    }

    /// A resource's metadata, at the well-known path with the resource's path inserted.
    func protectedResourceMetadata(_ request: HTTPServerRequest) -> HTTPServerResponse {
        let path = String(request.path.dropFirst(LocalProvider.Endpoint.resourceMetadata.path.count))
        guard let resource = options.protectedResources.first(where: { $0.path == path }) else { return .text("Not found", status: 404) }
        var document: [String: Any] = [
            "resource": issuer + resource.path,
            "authorization_servers": [issuer],
            "bearer_methods_supported": ["header"],
        ]
        if !resource.scopes.isEmpty { document["scopes_supported"] = resource.scopes.sorted() }
        if options.offersDPoP { document["dpop_signing_alg_values_supported"] = ["ES256"] }
        return Self.json(document)
    }
}
