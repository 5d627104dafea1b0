import Foundation

/// A protected resource's metadata (RFC 9728 §2): which authorization servers issue its
/// tokens, the scopes it knows, how it takes a token.
///
/// A value that exists is valid for the resource it was read for: its `resource` names that
/// resource (``covers(_:)``), every authorization server is an https URL (http only on
/// loopback) without query or fragment, and every member has its type.
public struct ProtectedResourceMetadata: Sendable, Equatable {
    /// `resource`: the resource identifier, the value to send as RFC 8707's `resource`.
    public let resource: URL
    /// `authorization_servers`: the issuers whose tokens the resource takes, in the resource's
    /// order; empty when it names none.
    public let authorizationServers: [URL]
    /// `scopes_supported`, when given.
    public let scopesSupported: [String]?
    /// `bearer_methods_supported` (`header`, `body`, `query`), when given.
    public let bearerMethodsSupported: [String]?
    /// `resource_name`, for people.
    public let resourceName: String?
    /// `dpop_bound_access_tokens_required`: the resource takes only DPoP-bound tokens.
    public let dpopBoundAccessTokensRequired: Bool
    /// `dpop_signing_alg_values_supported`, when given.
    public let dpopSigningAlgValuesSupported: [String]?

    /// Parses and validates a metadata document read for `requested`, the URL the client was
    /// about to use or used when it was challenged.
    /// - Throws: `invalidDiscoveryDocument` (process `configuration`) for a document that is not
    ///   a JSON object of the RFC's members, whose `resource` does not cover `requested`, or that
    ///   names an authorization server that is not https (http only on loopback).
    public init(data: Data, requested: URL) throws {
        let fields = try JSONFields(data: data) { why in
            SessionError(.invalidDiscoveryDocument, process: .configuration, message: "protected resource metadata: \(why)")
        }
        let resource = try fields.requiredURL("resource")
        guard Self.isResourceIdentifier(resource) else {
            throw fields.fail("'resource' must be an https URL (http only on loopback) without query or fragment")
        }
        guard Self.resource(resource, covers: requested) else {
            throw fields.fail("'resource' is '\(Redaction.url(resource))', which does not cover '\(Redaction.url(requested))'")
        }
        self.resource = resource
        authorizationServers = try (fields.strings("authorization_servers") ?? []).map { text in
            guard let url = URL(string: text), Self.isResourceIdentifier(url) else {
                throw fields.fail("authorization server '\(StrictJSON.printable(text))' is not an https URL (http only on loopback) without query or fragment")
            }
            return url
        }
        scopesSupported = try fields.strings("scopes_supported")
        bearerMethodsSupported = try fields.strings("bearer_methods_supported")
        resourceName = try fields.string("resource_name")
        dpopBoundAccessTokensRequired = try fields.bool("dpop_bound_access_tokens_required") ?? false
        dpopSigningAlgValuesSupported = try fields.strings("dpop_signing_alg_values_supported")
    }

    /// Whether this resource identifier covers `url`: the same origin, and a path that is the
    /// identifier's or below it at a `/`. RFC 9728 §3.3 asks for the identifier the client
    /// used; MCP clients use the server's URL, and servers name their root or the endpoint, so
    /// the rule is the one the MCP SDKs and draft-mcguinness-oauth-rfc9728bis apply.
    public func covers(_ url: URL) -> Bool { Self.resource(resource, covers: url) }

    /// Where the metadata of `resource` may be, in the order to try (RFC 9728 §3.1): the
    /// well-known path inserted before the resource's path, then, for a resource with a path,
    /// at the origin's root.
    public static func wellKnownURLs(for resource: URL) -> [URL] {
        guard var components = URLComponents(url: resource, resolvingAgainstBaseURL: false) else { return [] }
        components.query = nil
        components.fragment = nil
        let path = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = "/.well-known/oauth-protected-resource" + path
        let inserted = components.url
        components.path = "/.well-known/oauth-protected-resource"
        let root = path.isEmpty ? nil : components.url
        return [inserted, root].compactMap { $0 }
    }

    static func isResourceIdentifier(_ url: URL) -> Bool {
        guard URLRules.isSecureEndpoint(url), let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return false }
        return components.query == nil && components.fragment == nil && components.user == nil && components.password == nil
    }

    static func resource(_ resource: URL, covers url: URL) -> Bool {
        guard URLRules.sameOrigin(resource, url),
              let resourcePath = URLComponents(url: resource, resolvingAgainstBaseURL: false)?.percentEncodedPath,
              let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath,
              !Self.hasDotSegment(path), !Self.hasDotSegment(resourcePath) else { return false }
        // Paths as sent, byte for byte: decoding first would let `%2F` move a URL under the
        // resource, and String comparison folds Unicode-equivalent text together. A dot segment
        // (`/mcp/../admin`) is refused outright: the server resolves it elsewhere.
        let base = resourcePath.hasSuffix("/") ? resourcePath.utf8.dropLast() : resourcePath.utf8[...]
        return base.isEmpty || path.utf8.elementsEqual(base)
            || (path.utf8.starts(with: base) && path.utf8.dropFirst(base.count).first == UInt8(ascii: "/"))
    }

    /// True when `path` has a `.` or `..` segment, percent-encoded or not (RFC 3986 §5.2.4).
    static func hasDotSegment(_ path: String) -> Bool {
        path.split(separator: "/", omittingEmptySubsequences: false).contains { segment in
            let decoded = segment.replacingOccurrences(of: "%2e", with: ".", options: .caseInsensitive)
            return Exact.equal(decoded, ".") || Exact.equal(decoded, "..")
        }
    }
}
