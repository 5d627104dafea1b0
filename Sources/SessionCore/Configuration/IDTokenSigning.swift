import Foundation

/// How the provider signs the ID tokens it issues this client: what the client registered as
/// `id_token_signed_response_alg` (OpenID Connect Dynamic Client Registration §2).
public enum IDTokenSigning: Sendable, Equatable {
    /// Signed with RS256 or ES256, checked against the provider's key set. The default.
    case signed
    /// Unsigned (`alg` `none`), for a client registered that way. OpenID Connect Core §3.1.3.7
    /// allows it for the code flow, where the ID token comes straight from the token endpoint
    /// over TLS: it is accepted only there (the client takes ID tokens from nowhere else), only
    /// from an https or loopback endpoint, only with an empty signature, and with every claim
    /// check still applied. A signed token is then refused: it is not what was registered.
    case unsigned
}
