import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension SessionClient {
    /// Sends `request` to a resource server on the user's behalf: with `Authorization: Bearer`
    /// (or, for DPoP-bound tokens, `Authorization: DPoP` and a proof of the request) and the
    /// token `credential` picks from the session's fresh tokens (the access token unless it says
    /// otherwise), refreshed first when due, as for every call of the client. The hook
    /// other resource APIs build on (SessionPermissions' permission center, an app's own API).
    ///
    /// When the server refuses the token (401 with a Bearer challenge whose `error` is
    /// `invalid_token`: revoked, or the clocks disagree about its expiry) and the session has a
    /// refresh token, the tokens are refreshed and the request is sent once more — only once, and
    /// only for a request that may be sent twice: GET, HEAD, OPTIONS, PUT and DELETE (idempotent,
    /// RFC 9110 §9.2.2). A POST or PATCH gets the refusal back. Concurrent calls refused with the
    /// same token share one refresh.
    ///
    /// The response is returned whatever its status, with the tokens it was sent with; read a
    /// refusal with the rules of the API called (an RFC 6750 `WWW-Authenticate` challenge, say).
    /// - Parameters:
    ///   - request: the request; an `Authorization` header in it (any spelling) is replaced.
    ///   - process: the process every error is attributed to.
    ///   - purpose: what the request is for, as log lines name it (never a secret).
    ///   - credential: picks the bearer token from the fresh tokens; an error it throws ends the call.
    /// - Throws: `invalidConfiguration` for a URL that is not https (nor http to a loopback host),
    ///   before anything is sent: a token never travels in the clear; token errors (see
    ///   ``validTokens()``), the refresh's errors when a refused token was refreshed, transport
    ///   errors, and what `credential` throws, all with process `process`.
    public func sendAuthorized(_ request: HTTPRequest, process: SessionError.Process, purpose: String,
                               credential: @escaping @Sendable (SessionTokens) throws -> String = { $0.accessToken })
        async throws -> (response: HTTPResponse, tokens: SessionTokens) {
        try await attributingErrors(to: process) {
            try ResourceRequestRules.requireSecure(request.url, process: process)
            if let resource = try resourceToken(for: request.url, process: process) {
                return try await sendAuthorized(request, forResource: resource, process: process, purpose: purpose)
            }
            return try await sendReplacingRefused(request, tokens: try await validTokens(), process: process, purpose: purpose,
                                                  credential: credential) { sent in try await self.tokensReplacing(sent, credential: credential) }
        }
    }

    /// Sends `request` with the token `credential` picks from `tokens`. When the server refuses
    /// it (see ``ResourceRequestRules/refusesToken(_:)``), the session can refresh and the request
    /// may be sent twice, sends it once more with the token `credential` picks from what
    /// `replacing` returns for the refused one.
    func sendReplacingRefused(_ request: HTTPRequest, tokens: SessionTokens, process: SessionError.Process, purpose: String,
                              credential: (SessionTokens) throws -> String,
                              replacing: (String) async throws -> SessionTokens) async throws -> (response: HTTPResponse, tokens: SessionTokens) {
        let sent = try credential(tokens)
        let response = try await sendResource(request, token: sent, of: tokens, process: process, purpose: purpose)
        guard ResourceRequestRules.refusesToken(response), tokens.refreshToken != nil, request.mayBeSentTwice else { return (response, tokens) }
        log(.info, "\(purpose): the server refused the token; refreshing once and sending the request again")
        let refreshed = try await replacing(sent)
        return (try await sendResource(request, token: try credential(refreshed), of: refreshed, process: process, purpose: purpose), refreshed)
    }

    /// Sends `request` with `token`, proved with the key of DPoP-bound `tokens` when it is their
    /// access token or a DPoP-bound token of one of their resources.
    func sendResource(_ request: HTTPRequest, token: String, of tokens: SessionTokens, process: SessionError.Process,
                      purpose: String) async throws -> HTTPResponse {
        let proved = Exact.equal(token, tokens.accessToken) || tokens.resourceTokens.values.contains { $0.isDPoPBound && Exact.equal($0.accessToken, token) }
        let key = proved ? try await dpopKeyOrEnd(tokens) : nil
        return try await provider.sendResource(request, token: token, key: key, process: process, purpose: purpose)
    }

    /// Returns `request` with `Authorization: Bearer` and the session's fresh access token,
    /// refreshed first when due: for an app's own `URLSession` calls to its API. DPoP-bound
    /// tokens go as `Authorization: DPoP` with a `DPoP` proof of this request's method and URL
    /// (RFC 9449 §7), carrying the server's last nonce; make a new one for every request sent.
    ///
    /// ```swift
    /// let (data, response) = try await URLSession.shared.data(for: try await client.authorize(request))
    /// ```
    /// It sends nothing but a refresh when one is due; a 401 from the API is the app's to handle
    /// (``refresh()``, then authorize again). ``sendAuthorized(_:process:purpose:credential:)``
    /// does that for you.
    /// - Throws: `invalidConfiguration` for a request whose URL is not https (nor http to a
    ///   loopback host), as for the provider's endpoints; token errors (see ``validTokens()``).
    public func authorize(_ request: URLRequest) async throws -> URLRequest {
        try await authorize(request, subject: nil)
    }

    /// ``authorize(_:)``, refused with `notAuthenticated` unless the session is `subject`'s (when
    /// given): for an authorizer handed out for one user, which must not lend the next user's token.
    package func authorize(_ request: URLRequest, subject: String?) async throws -> URLRequest {
        guard let url = request.url else {
            throw SessionError(.invalidConfiguration, process: .authentication, message: "a request without a URL cannot be authorized")
        }
        try ResourceRequestRules.requireSecure(url, process: .authentication)
        let resource = try resourceToken(for: url, process: .authentication)
        let tokens = if let resource { try await validTokens(resource) } else { try await validTokens() }
        if let subject, !Exact.equal(tokens.subject, subject) {
            throw SessionError(.notAuthenticated, process: .authentication,
                               message: "the signed-in user is not the one this authorization was made for")
        }
        let token = resource.flatMap { tokens.resourceTokens[$0] }
        let sent = token?.accessToken ?? tokens.accessToken
        guard token?.isDPoPBound ?? true, let key = try await dpopKeyOrEnd(tokens) else { return request.authorized(with: sent, proof: nil) }
        return request.authorized(with: sent, proof: try provider.proof(key, method: request.httpMethod ?? "GET", url: url, accessToken: sent))
    }

    /// The tokens to send instead of the refused `token`: the current ones when another call
    /// already replaced it, else a refresh's (shared with any other call refused meanwhile), which
    /// under a shared store's lock first adopts tokens another process rotated — and then sends no
    /// request of its own. With `resource`, the refresh is for that resource's token.
    func tokensReplacing(_ token: String, resource: String? = nil, credential: @escaping @Sendable (SessionTokens) throws -> String) async throws -> SessionTokens {
        let stillRefused: @Sendable (SessionTokens) -> Bool = { tokens in (try? credential(tokens)).map { Exact.equal($0, token) } ?? true }
        if let current = state.tokens, !stillRefused(current) { return current }
        return try await refresh(unless: stillRefused, resource: resource)
    }
}
