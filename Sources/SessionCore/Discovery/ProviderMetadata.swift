import Foundation

/// The provider's metadata from `/.well-known/openid-configuration` (OpenID Connect Discovery
/// 1.0), completed from the OAuth metadata document (RFC 8414) where the first lacks a member;
/// or, for an OAuth 2.0 authorization server (``MetadataDiscovery/authorizationServer``), from
/// the first of its RFC 8414 and OpenID documents found.
///
/// A value that exists is valid: the issuer equals the configured one exactly, the required
/// endpoints are present and secure, and the provider does not rule out PKCE S256 (an
/// authorization server found by ``MetadataDiscovery/authorizationServer`` must list it).
public struct ProviderMetadata: Sendable, Equatable {
    /// The issuer, equal to the configured one.
    public let issuer: String
    /// Where the browser is sent to authorize.
    public let authorizationEndpoint: URL
    /// Where codes and refresh tokens are exchanged.
    public let tokenEndpoint: URL
    /// The signing keys: always named by an OpenID provider; nil for an OAuth 2.0 authorization
    /// server that names none (it then issues no ID token a client can check).
    public let jwksURI: URL?
    /// The UserInfo endpoint, if the provider has one.
    public let userInfoEndpoint: URL?
    /// The RFC 7009 revocation endpoint, if the provider has one.
    public let revocationEndpoint: URL?
    /// The RFC 7662 introspection endpoint, if the provider has one: where a confidential client
    /// asks whether a token of its own is still active.
    public let introspectionEndpoint: URL?
    /// `device_authorization_endpoint` (RFC 8628 §4), where a device sign-in starts; nil when the
    /// provider offers none.
    public let deviceAuthorizationEndpoint: URL?
    /// The RP-initiated logout endpoint, if the provider has one.
    public let endSessionEndpoint: URL?
    /// Whether the provider sends RFC 9207's `iss` authorization response parameter; when true,
    /// a redirect without it is refused.
    public let authorizationResponseIssParameterSupported: Bool
    /// `pushed_authorization_request_endpoint` (RFC 9126 §5), where a sign-in's parameters may be
    /// posted before the browser goes to the authorization endpoint; nil when the provider has none.
    public let pushedAuthorizationRequestEndpoint: URL?
    /// `require_pushed_authorization_requests` (RFC 9126 §5): the provider takes no other kind.
    public let requirePushedAuthorizationRequests: Bool
    /// `dpop_signing_alg_values_supported` (RFC 9449 §5.1): the proof algorithms the provider
    /// takes; nil when it does not say (it may still take DPoP).
    public let dpopSigningAlgValuesSupported: [String]?
    /// `registration_endpoint` (RFC 8414 §2, RFC 7591 §3): where a client may register itself;
    /// nil when the server takes no dynamic registration.
    public let registrationEndpoint: URL?
    /// `client_id_metadata_document_supported`: the server takes an https URL of a Client ID
    /// Metadata Document as a `client_id`.
    public let clientIDMetadataDocumentSupported: Bool

    /// The kinds of metadata document, by what each requires.
    enum Document: Sendable {
        /// OpenID Connect Discovery 1.0's `openid-configuration`: `jwks_uri` required.
        case openIDConfiguration
        /// RFC 8414's `oauth-authorization-server`: `jwks_uri` optional.
        case oauthAuthorizationServer
    }

    /// Parses and validates a `document` for `expectedIssuer`; with `requiringPKCEListed`,
    /// `code_challenge_methods_supported` must be present (and name S256), as a client that learns
    /// of PKCE support only from metadata must require.
    init(data: Data, expectedIssuer: String, document: Document = .openIDConfiguration, requiringPKCEListed: Bool = false) throws {
        let fields = try JSONFields(data: data) { why in
            SessionError(.invalidDiscoveryDocument, process: .configuration, message: "discovery document: \(why)")
        }
        let issuer = try fields.requiredString("issuer")
        guard Exact.equal(issuer, expectedIssuer) else {
            throw SessionError(.issuerMismatch, process: .configuration,
                               message: "discovery document: issuer '\(issuer)' is not the configured '\(expectedIssuer)'")
        }
        func endpoint(_ key: String) throws -> URL? {
            guard let url = try fields.url(key) else { return nil }
            guard URLRules.isSecureEndpoint(url) else { throw fields.fail("'\(key)' must be https (http only on loopback)") }
            return url
        }
        func requiredEndpoint(_ key: String) throws -> URL {
            guard let url = try endpoint(key) else { throw fields.fail("member '\(key)' is missing") }
            return url
        }
        self.issuer = issuer
        authorizationEndpoint = try requiredEndpoint("authorization_endpoint")
        tokenEndpoint = try requiredEndpoint("token_endpoint")
        jwksURI = document == .openIDConfiguration ? try requiredEndpoint("jwks_uri") : try endpoint("jwks_uri")
        userInfoEndpoint = try endpoint("userinfo_endpoint")
        revocationEndpoint = try endpoint("revocation_endpoint")
        introspectionEndpoint = try endpoint("introspection_endpoint")
        endSessionEndpoint = try endpoint("end_session_endpoint")
        deviceAuthorizationEndpoint = try endpoint("device_authorization_endpoint")
        authorizationResponseIssParameterSupported = try fields.bool("authorization_response_iss_parameter_supported") ?? false
        pushedAuthorizationRequestEndpoint = try endpoint("pushed_authorization_request_endpoint")
        requirePushedAuthorizationRequests = try fields.bool("require_pushed_authorization_requests") ?? false
        if requirePushedAuthorizationRequests, pushedAuthorizationRequestEndpoint == nil {
            throw fields.fail("pushed authorization requests are required, but 'pushed_authorization_request_endpoint' is missing")
        }
        dpopSigningAlgValuesSupported = try fields.strings("dpop_signing_alg_values_supported")
        registrationEndpoint = try endpoint("registration_endpoint")
        clientIDMetadataDocumentSupported = try fields.bool("client_id_metadata_document_supported") ?? false
        if let responseTypes = try fields.strings("response_types_supported"), !Exact.contains(responseTypes, "code") {
            throw SessionError(.unsupportedProviderFeature, process: .configuration, message: "the provider does not support response type 'code'")
        }
        let methods = try fields.strings("code_challenge_methods_supported")
        if let methods, !Exact.contains(methods, PKCE.method) {
            throw SessionError(.unsupportedProviderFeature, process: .configuration, message: "the provider does not support PKCE S256")
        }
        if requiringPKCEListed, methods == nil {
            throw SessionError(.unsupportedProviderFeature, process: .configuration,
                               message: "the authorization server's metadata has no 'code_challenge_methods_supported': it is taken not to support PKCE")
        }
    }

    /// Where the OAuth metadata document (RFC 8414 §3) of `issuer` may be: the RFC's form
    /// (well-known path inserted before the issuer's path) and, for issuers with a path, the
    /// form that appends it as OpenID discovery does, which some providers use.
    static func oauthMetadataURLs(issuer: URL) -> [URL] {
        guard var components = URLComponents(url: issuer, resolvingAgainstBaseURL: false) else { return [] }
        let path = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = "/.well-known/oauth-authorization-server" + path
        let inserted = components.url
        components.path = path + "/.well-known/oauth-authorization-server"
        let appended = path.isEmpty ? nil : components.url
        return [inserted, appended].compactMap { $0 }
    }

    /// Where an authorization server a protected resource names may keep its metadata, in the
    /// order to try (RFC 8414 §3.1 and §5, as MCP's authorization specification orders them):
    /// for an issuer with a path, the OAuth document with the well-known path inserted, the
    /// OpenID document inserted, then the OpenID document appended; without a path, the OAuth
    /// document, then the OpenID one.
    public static func metadataURLs(forAuthorizationServer issuer: URL) -> [URL] {
        guard var components = URLComponents(url: issuer, resolvingAgainstBaseURL: false) else { return [] }
        components.query = nil
        components.fragment = nil
        let path = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        var paths = ["/.well-known/oauth-authorization-server" + path, "/.well-known/openid-configuration" + path]
        if !path.isEmpty { paths.append(path + "/.well-known/openid-configuration") }
        let urls = paths.map { path -> URL? in
            components.path = path
            return components.url
        }
        return urls.compactMap { $0 }
    }

    /// The OpenID discovery URL of `issuer` (OpenID Connect Discovery §4).
    static func discoveryURL(issuer: URL) -> URL {
        let text = issuer.absoluteString
        return URL(string: (text.hasSuffix("/") ? String(text.dropLast()) : text) + "/.well-known/openid-configuration") ?? issuer
    }

    /// The issuer a discovery URL belongs to: `url` without a trailing
    /// `/.well-known/openid-configuration` (and without a trailing slash), the inverse of the
    /// discovery rule. A URL without that suffix is taken to be the issuer itself.
    public static func issuer(forDiscoveryURL url: URL) -> URL {
        var text = url.absoluteString
        let suffix = "/.well-known/openid-configuration"
        if text.hasSuffix(suffix) { text.removeLast(suffix.count) }
        if text.hasSuffix("/") { text.removeLast() }
        return URL(string: text) ?? url
    }

    /// The revocation endpoint from an RFC 8414 document of the same issuer, or nil.
    static func revocationEndpoint(fromOAuthMetadata data: Data, expectedIssuer: String) -> URL? {
        guard case .object(let members)? = JSONValue.parse(data), Exact.equal(members["issuer"]?.stringValue, expectedIssuer),
              let text = members["revocation_endpoint"]?.stringValue, let url = URL(string: text),
              URLRules.isSecureEndpoint(url) else { return nil }
        return url
    }
}
