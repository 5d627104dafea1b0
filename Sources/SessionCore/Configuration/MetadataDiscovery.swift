import Foundation

/// Where a client finds its authorization server's metadata, and what that metadata must hold.
public enum MetadataDiscovery: Sendable, Equatable {
    /// An OpenID provider (OpenID Connect Discovery 1.0 §4): one request to the issuer's
    /// `/.well-known/openid-configuration`, a document that must name the signing keys
    /// (`jwks_uri`). Sign-ins ask for `openid` unless told otherwise. The default.
    case openIDConnect
    /// An OAuth 2.0 authorization server, as a protected resource names one (RFC 9728): its
    /// RFC 8414 document with the well-known path inserted, then the OpenID document inserted and
    /// appended (``ProviderMetadata/metadataURLs(forAuthorizationServer:)``), the first found
    /// taken. The RFC 8414 document need not name signing keys, UserInfo or logout — a server
    /// that is OAuth only works, and its sessions have tokens without identity claims
    /// (``SessionTokens/hasIdentity``). Either document must list S256 in
    /// `code_challenge_methods_supported`: without the list the server is taken not to support
    /// PKCE. Sign-ins ask for the configured scopes only (no `openid`), and may ask for none.
    case authorizationServer
}
