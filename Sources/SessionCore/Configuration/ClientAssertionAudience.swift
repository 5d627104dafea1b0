/// What a `private_key_jwt` client assertion names as its audience (`aud`).
public enum ClientAssertionAudience: Sendable, Equatable {
    /// The token endpoint's URL, as RFC 7523 §3 and OpenID Connect Core §9 describe: what every
    /// provider accepts. The default.
    case tokenEndpoint
    /// The provider's issuer identifier, as the only value, a string: what the FAPI 2.0 Security
    /// Profile asks of clients, so that an assertion made for one provider is not accepted by
    /// another that shares an endpoint URL with it. Use it where the provider accepts it.
    case issuer
}
