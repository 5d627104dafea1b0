import Foundation

/// UserInfo (OIDC Core §5.3): a resource call of the session, to the provider's own endpoint.
extension SessionClient {
    /// Fetches the UserInfo (OIDC Core §5.3) with a fresh access token.
    /// - Throws: token errors (see ``validTokens()``); `unsupportedProviderFeature` when the
    ///   provider has no UserInfo endpoint; `invalidToken` and other RFC 6750 errors;
    ///   `invalidResponse`; `userInfoSubjectMismatch` when its `sub` is not the ID token's.
    ///   All with process `userInfo`, discovery's too (their message starts with `discovery:`).
    public func userInfo() async throws -> UserInfo {
        try await attributingErrors(to: .userInfo) {
            let metadata = try await discover()
            guard let endpoint = metadata.userInfoEndpoint else {
                throw SessionError(.unsupportedProviderFeature, process: .userInfo, message: "the provider has no UserInfo endpoint (an OAuth-only server's session names no user)")
            }
            let (response, tokens) = try await sendAuthorized(HTTPRequest(method: "GET", url: endpoint, headers: ["Accept": "application/json"]),
                                                               process: .userInfo, purpose: "UserInfo")
            guard response.status == 200 else { throw ProviderExchange.statusError(response, process: .userInfo, purpose: "UserInfo") }
            if response.mediaType == "application/jwt" {
                throw SessionError(.invalidResponse, process: .userInfo, message: "UserInfo: signed responses are not supported")
            }
            let info = try UserInfo(data: response.body)
            if let subject = tokens.subject, !Exact.equal(info.sub, subject) {
                throw SessionError(.userInfoSubjectMismatch, process: .userInfo, message: "UserInfo: 'sub' is not the ID token's subject")
            }
            return info
        }
    }
}
