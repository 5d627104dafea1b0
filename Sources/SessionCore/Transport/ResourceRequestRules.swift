import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The rules for a request that carries a token to a resource server.
enum ResourceRequestRules {
    /// Refuses a resource URL a token would reach in the clear: the endpoint rule of the provider's
    /// own URLs (https, or http to a loopback host) holds for every request that carries a token.
    static func requireSecure(_ url: URL, process: SessionError.Process) throws {
        guard URLRules.isSecureEndpoint(url) else {
            throw SessionError(.invalidConfiguration, process: process,
                               message: "the request's URL is not https (nor http to a loopback host): its token would travel in the clear")
        }
    }

    /// True for a resource server's refusal of the token itself (RFC 6750 §3.1).
    static func refusesToken(_ response: HTTPResponse) -> Bool {
        guard response.status == 401, let challenge = response.header("WWW-Authenticate") else { return false }
        let error = (OAuthErrorResponse(bearerChallenge: challenge) ?? OAuthErrorResponse(challenge: challenge, scheme: "DPoP"))?.error
        return Exact.equal(error, "invalid_token")
    }
}

extension URLRequest {
    /// This request with `Authorization: Bearer accessToken`, or with `proof` (a DPoP proof of this
    /// request) `Authorization: DPoP accessToken` and the `DPoP` header; any earlier Authorization
    /// or proof header goes, in any spelling (header names compare without regard to case).
    func authorized(with accessToken: String, proof: String?) -> URLRequest {
        var authorized = self
        for name in (allHTTPHeaderFields ?? [:]).keys
        where ASCII.equalIgnoringCase(name, "Authorization") || ASCII.equalIgnoringCase(name, "DPoP") {
            authorized.setValue(nil, forHTTPHeaderField: name)
        }
        authorized.setValue("\(proof == nil ? "Bearer" : "DPoP") \(accessToken)", forHTTPHeaderField: "Authorization")
        if let proof { authorized.setValue(proof, forHTTPHeaderField: "DPoP") }
        return authorized
    }
}
