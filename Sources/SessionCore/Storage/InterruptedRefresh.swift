import Foundation

/// A refresh another process began and never finished: it stored the session marked as refreshing,
/// sent the request, and died (or lost its store) before saving the answer. Its refresh token may
/// be spent — sending it again to a provider that rotates would revoke the whole grant — or may not:
/// the process may have died before its request left. Where the provider can tell, the session
/// goes on instead of ending.
enum InterruptedRefresh {
    /// Not spent, or still honoured: the session goes on with these tokens, the mark taken off.
    case unspent(SessionTokens)
    /// Spent, or nobody can tell: the session ends, for this reason.
    case lost(String)

    /// Finds out whether `stored`'s refresh token outlived the interrupted refresh it is marked
    /// with: by asking `provider` (RFC 7662 introspection with the client's own credentials, when
    /// the client is confidential and the provider has the endpoint), else by the provider's reuse
    /// interval (``SessionConfiguration/refreshTokenReuseInterval``: the mark is younger than half
    /// of it, leaving room for clocks that differ), else not at all.
    static func resolve(_ stored: SessionTokens, at provider: OpenIDProvider) async -> InterruptedRefresh {
        guard stored.inFlight == .refresh else { return .lost("a revocation was under way: the session was being ended") }
        if let verdict = await introspect(stored, at: provider) { return verdict }
        if let interval = provider.configuration.refreshTokenReuseInterval {
            guard let since = stored.inFlightSince else { return .lost("the interrupted refresh has no time, so the reuse interval cannot be applied") }
            let age = provider.clock.now().timeIntervalSince(since)
            if age < interval / 2 { return .unspent(stored.marked(nil)) }
            return .lost("it was interrupted \(wholeSeconds(age)) s ago, too long for the provider's reuse interval of \(wholeSeconds(interval)) s")
        }
        return .lost("the provider cannot say whether it was spent: it offers this client no introspection, and no refreshTokenReuseInterval is configured")
    }

    /// The provider's word on `stored`'s refresh token (RFC 7662): nil when it cannot be asked (a
    /// public client, no introspection endpoint, no refresh token) or gave no usable answer.
    private static func introspect(_ stored: SessionTokens, at provider: OpenIDProvider) async -> InterruptedRefresh? {
        guard provider.configuration.clientAuthentication != .none, let refreshToken = stored.refreshToken,
              let metadata = try? await provider.discover(), let endpoint = metadata.introspectionEndpoint,
              let request = try? provider.clientRequest(endpoint, [("token", refreshToken), ("token_type_hint", "refresh_token")],
                                                        metadata: metadata, process: .authentication),
              case .success(let response) = await provider.exchange.attempt(request, purpose: "introspection"), response.status == 200,
              case .object(let members)? = JSONValue.parse(response.body), case .bool(let active)? = members["active"] else { return nil }
        provider.log(.info, "introspection of an interrupted refresh's token: \(active ? "still active" : "no longer active")")
        return active ? .unspent(stored.marked(nil)) : .lost("the provider says its refresh token is no longer active: it was spent")
    }
}
