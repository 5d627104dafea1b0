import Foundation

extension SessionClient {
    /// Fetches the UserInfo (OIDC Core §5.3) with a fresh access token.
    /// - Throws: token errors (see ``validTokens()``); `unsupportedProviderFeature` when the
    ///   provider has no UserInfo endpoint; `invalidToken` and other RFC 6750 errors;
    ///   `invalidResponse`; `userInfoSubjectMismatch` when its `sub` is not the ID token's.
    ///   All with process `userInfo`.
    public func userInfo() async throws -> UserInfo {
        try await within(.userInfo) {
            let metadata = try await discover()
            guard let endpoint = metadata.userInfoEndpoint else {
                throw SessionError(.unsupportedProviderFeature, process: .userInfo, message: "the provider has no UserInfo endpoint")
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

    /// Sends `request` to a resource server on the user's behalf: with `Authorization: Bearer`
    /// and the token `credential` picks from the session's fresh tokens (the access token unless
    /// it says otherwise), refreshed first when due, as for every call of the client. The hook
    /// other resource APIs build on (SessionPermissions' permission center, an app's own API).
    ///
    /// The response is returned whatever its status, with the tokens it was sent with; read a
    /// refusal with the rules of the API called (an RFC 6750 `WWW-Authenticate` challenge, say).
    /// - Parameters:
    ///   - request: the request; an `Authorization` header in it (any spelling) is replaced.
    ///   - process: the process every error is attributed to.
    ///   - purpose: what the request is for, as log lines name it (never a secret).
    ///   - credential: picks the bearer token from the fresh tokens; an error it throws ends the call.
    /// - Throws: token errors (see ``validTokens()``), transport errors, and what `credential`
    ///   throws, all with process `process`.
    public func sendAuthorized(_ request: HTTPRequest, process: SessionError.Process, purpose: String,
                               credential: @Sendable (SessionTokens) throws -> String = { $0.accessToken })
        async throws -> (response: HTTPResponse, tokens: SessionTokens) {
        try await within(process) {
            let tokens = try await validTokens()
            var authorized = request
            authorized.headers = request.headers.filter { !ASCII.equalIgnoringCase($0.key, "Authorization") }
            authorized.headers["Authorization"] = "Bearer \(try credential(tokens))"
            return (try await exchange.send(authorized, process: process, purpose: purpose), tokens)
        }
    }

    /// Runs `body`, attributing any ``SessionError`` to `process`.
    func within<T>(_ process: SessionError.Process, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as SessionError {
            throw error.in(process)
        }
    }
}
